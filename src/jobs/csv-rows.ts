import { parse } from 'csv-parse/sync';
import { CsvError } from 'csv-parse';
import type { ErrorCode } from '../errors/catalogue.js';
import { limits } from './limits.js';
import { readSourceText, type SourceText } from './source-text.js';

/** One data row of a forEach CSV, with where it is written. */
export interface CsvRow {
  values: Record<string, string>;
  /** 1-based line of the row in the CSV file. */
  line: number;
  /** 1-based column at which each cell starts, by column name (for diagnostics pointing at a cell). */
  cellColumn(column: string): number;
}

/**
 * A CSV's data rows, each made when it is taken (issue 37): a 100,000-row
 * file holds its parsed cells, not a row object, a values object and a
 * closure per row. `take` lets the row's cells go: each row is taken once.
 */
export interface CsvRows {
  readonly length: number;
  /**
   * The row at `index` (0-based); its cells are let go, so a second take of
   * it is an error, unless `keep` (a streamed run expands the row again when
   * its envelope is sent: jobs/row-envelope.ts).
   */
  take(index: number, keep?: boolean): CsvRow;
}

export type CsvResult =
  | { ok: true; columns: string[]; rows: CsvRows; source: SourceText }
  | { ok: false; code: ErrorCode; message: string; line: number; column: number; source?: SourceText };

/**
 * Reads a forEach CSV with csv-parse: UTF-8, first line = column names,
 * empty lines skipped, every row as long as the header. Limited in size
 * (limits.csvBytes) and rows (limits.forEachRows).
 */
export async function readCsvRows(path: string, shownAs: string): Promise<CsvResult> {
  const read = await readSourceText(path, limits.csvBytes, `the CSV file ${shownAs}`);
  if (!read.ok) return { ...read, line: 1, column: 1 };
  const source = read.source;
  const text = source.text;
  const { lines: starts, offsets } = recordStarts(text);
  if (starts.length - 1 > limits.forEachRows) {
    // Refused before parsing: a huge file costs one scan, not a full parse.
    return {
      ok: false,
      code: 'SR_CSV_TOO_MANY_ROWS',
      message: `${shownAs} has ${starts.length - 1} rows; one forEach takes at most ${limits.forEachRows}`,
      line: starts[limits.forEachRows + 1]!,
      column: 1,
      source,
    };
  }
  // Spreadsheets in many locales save "CSV" with semicolons (or tabs): the
  // header line says which; a comma file stays a comma file.
  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    // Plain arrays: csv-parse's `info`/`raw` options make it ~8 times slower,
    // so positions come from recordStarts() instead.
    const parsed: unknown = parse(text, { skip_empty_lines: true, relax_column_count: false, trim: false, delimiter });
    records = parsed as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const { message, line, column } = csvErrorInWords(error, text, delimiter);
      return { ok: false, code: 'SR_CSV_INVALID', message: `${shownAs}: ${message}`, line, column, source };
    }
    throw error;
  }
  const header = records[0];
  if (!header)
    return {
      ok: false,
      code: 'SR_CSV_INVALID',
      message: `${shownAs} is empty; its first line must name the columns`,
      line: 1,
      column: 1,
      source,
    };
  // Should csv-parse and the scanner ever disagree, positions fall back to the row number.
  const lineOf = (r: number): number => (starts.length === records.length ? starts[r]! : r + 1);
  const columns = header.map((c) => c.trim());
  const seen = new Set<string>();
  for (const [i, column] of columns.entries()) {
    if (column === '' || seen.has(column)) {
      return {
        ok: false,
        code: 'SR_CSV_INVALID',
        message: `${shownAs}: header column ${i + 1} is ${column === '' ? 'empty' : `"${column}" a second time`}`,
        line: lineOf(0),
        column: 1,
        source,
      };
    }
    seen.add(column);
  }
  if (records.length - 1 > limits.forEachRows) {
    return {
      ok: false,
      code: 'SR_CSV_TOO_MANY_ROWS',
      message: `${shownAs} has ${records.length - 1} rows; one forEach takes at most ${limits.forEachRows}`,
      line: lineOf(limits.forEachRows + 1),
      column: 1,
      source,
    };
  }
  const unread: Array<string[] | undefined> = records;
  const keptRows = keptRecords(text, delimiter, records.length, starts.length === records.length ? offsets : undefined);
  const rows: CsvRows = {
    length: records.length - 1,
    take(index, keep = false) {
      const r = index + 1;
      const record = unread[r] ?? keptRows.cells(r);
      if (!record) throw new Error(`CSV row ${index + 1} of ${shownAs} taken twice`);
      if (keep) unread[r] = keptRows.keep(r, record);
      else {
        unread[r] = undefined;
        keptRows.forget(r);
      }
      // No prototype: a column named __proto__ or constructor is a column like any other.
      const values = Object.create(null) as Record<string, string>;
      for (let c = 0; c < columns.length; c++) values[columns[c]!] = record[c] ?? '';
      const line = lineOf(index + 1);
      return {
        values,
        line,
        cellColumn: (column) => cellStart(source.line(line) ?? '', columns.indexOf(column), delimiter),
      };
    },
  };
  return { ok: true, columns, rows, source };
}

/** How a row kept for taking again is held: by nothing more than where it is in the text, else a copy of its cells. */
const notKept = 0;
const fromText = 1;
const copied = 2;

/**
 * The rows kept to be taken again (a streamed run's, issue 37): a row is
 * its place in the CSV text (held anyway, for diagnostics), split again
 * when taken, if splitting it gives exactly csv-parse's cells (no quotes:
 * the cells are the text between delimiters); else an exact copy of its
 * cells (csv-parse's grow as their cells are pushed, and such a row of
 * three cells held some 300 bytes of spare room). At 100,000 rows, an
 * array and its strings a row (~230 bytes) less for the whole run.
 */
function keptRecords(
  text: string,
  delimiter: string,
  count: number,
  offsets: number[] | undefined,
): {
  /** What to hold for record `r` (1-based among data rows, 0 the header) from now on: its cells, or nothing when they are in the text. */
  keep(r: number, cells: string[]): string[] | undefined;
  /** The cells of record `r` kept as its place in the text; undefined if it is not. */
  cells(r: number): string[] | undefined;
  forget(r: number): void;
} {
  const how = new Uint8Array(count);
  const split = (r: number): string[] | undefined => {
    if (!offsets || r >= offsets.length) return undefined;
    let end = r + 1 < offsets.length ? offsets[r + 1]! : text.length;
    while (end > offsets[r]! && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
    const line = text.slice(offsets[r], end);
    return line.includes('"') ? undefined : line.split(delimiter);
  };
  return {
    keep(r, cells) {
      if (how[r] === fromText) return undefined;
      if (how[r] === copied) return cells;
      const again = split(r);
      const same = again !== undefined && again.length === cells.length && again.every((c, i) => c === cells[i]);
      how[r] = same ? fromText : copied;
      return same ? undefined : cells.slice();
    },
    cells: (r) => (how[r] === fromText ? split(r) : undefined),
    forget(r) {
      how[r] = notKept;
    },
  };
}

/**
 * 1-based line and offset in the text at which each record starts, skipping
 * empty lines as csv-parse's skip_empty_lines does and honouring quoted newlines.
 */
function recordStarts(text: string): { lines: number[]; offsets: number[] } {
  const starts: number[] = [];
  const offsets: number[] = [];
  let line = 1;
  let quoted = false;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (atLineStart && !quoted) {
      atLineStart = false;
      if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) === 10)) {
        if (ch === 13) i++;
        line++;
        atLineStart = true;
        continue;
      }
      starts.push(line);
      offsets.push(i);
    }
    if (ch === 34) quoted = !quoted;
    else if (ch === 10) {
      line++;
      atLineStart = !quoted;
    }
  }
  return { lines: starts, offsets };
}

/** The delimiter of the header line: the most frequent of `,` `;` and tab outside quotes; `,` when none. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of text.replace(/^\uFEFF/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** Where a record starts: 1-based line, counting the lines csv-parse read. */
function lineText(text: string, line: number): string {
  return text.split(/\r?\n/)[line - 1] ?? '';
}

/**
 * csv-parse's error in signrun's words, with the line and column of the
 * cell at fault (csv-parse says `Invalid Record Length: expect 6, got 7`).
 */
function csvErrorInWords(
  error: CsvError,
  text: string,
  delimiter: string,
): { message: string; line: number; column: number } {
  const info = error as CsvError & { lines?: number; record?: unknown[]; column?: number | string; index?: number };
  const line = info.lines ?? 1;
  const shownDelimiter = delimiter === '\t' ? 'tab' : `"${delimiter}"`;
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS': {
      const m = /expect (\d+), got (\d+)/.exec(error.message);
      const expected = Number(m?.[1] ?? 0);
      const got = Number(m?.[2] ?? info.record?.length ?? 0);
      const raw = lineText(text, line);
      const column = got > expected ? cellStart(raw, expected, delimiter) : Math.max(1, raw.length + 1);
      return {
        message:
          got > expected
            ? `line ${line} has ${got} cells but the header names ${expected} columns; cell ${expected + 1} starts at column ${column} (a ${shownDelimiter} inside a value needs the value in double quotes)`
            : `line ${line} has ${got} cells but the header names ${expected} columns; the line ends early (missing ${shownDelimiter} or cells)`,
        line,
        column,
      };
    }
    case 'CSV_QUOTE_NOT_CLOSED':
      return {
        message: `a double quote opened on or before line ${line} is never closed: the rest of the file was read as one cell`,
        line,
        column: 1,
      };
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return {
        message: `line ${line}: a quoted cell goes on after its closing quote; write a double quote inside a quoted value as "" (two quotes)`,
        line,
        column: Math.max(1, lineText(text, line).indexOf('"') + 1),
      };
    default:
      return {
        message: `line ${line} cannot be read as CSV (${error.message.replace(/ on line \d+$/, '')})`,
        line,
        column: 1,
      };
  }
}

/** 1-based column of cell `index` in a raw record, honouring quotes. */
function cellStart(raw: string, index: number, delimiter = ','): number {
  const text = raw.replace(/^(\r?\n)+/, '');
  if (index <= 0) return 1;
  let cell = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted && ++cell === index) return i + 2;
  }
  return 1;
}
