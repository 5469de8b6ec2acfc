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

export type CsvResult =
  | { ok: true; columns: string[]; rows: CsvRow[]; source: SourceText }
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
  let records: Array<{ record: string[]; raw: string; info: { lines: number } }>;
  try {
    records = parse(read.source.text, { info: true, raw: true, skip_empty_lines: true, relax_column_count: false, trim: false }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 1;
      return { ok: false, code: 'SR_CSV_INVALID', message: `${shownAs}: ${error.message.replace(/ on line \d+$/, '')}`, line, column: 1, source };
    }
    throw error;
  }
  const header = records[0];
  if (!header) return { ok: false, code: 'SR_CSV_INVALID', message: `${shownAs} is empty; its first line must name the columns`, line: 1, column: 1, source };
  const columns = header.record.map((c) => c.trim());
  const seen = new Set<string>();
  for (const [i, column] of columns.entries()) {
    if (column === '' || seen.has(column)) {
      return { ok: false, code: 'SR_CSV_INVALID', message: `${shownAs}: header column ${i + 1} is ${column === '' ? 'empty' : `"${column}" a second time`}`, line: startLine(header), column: 1, source };
    }
    seen.add(column);
  }
  if (records.length - 1 > limits.forEachRows) {
    return { ok: false, code: 'SR_CSV_TOO_MANY_ROWS', message: `${shownAs} has ${records.length - 1} rows; one forEach takes at most ${limits.forEachRows}`, line: limits.forEachRows + 2, column: 1, source };
  }
  const rows: CsvRow[] = [];
  for (let r = 1; r < records.length; r++) {
    const { record, raw } = records[r]!;
    const values: Record<string, string> = {};
    for (let c = 0; c < columns.length; c++) values[columns[c]!] = record[c] ?? '';
    rows.push({ values, line: startLine(records[r]!), cellColumn: (column) => cellStart(raw, columns.indexOf(column)) });
  }
  return { ok: true, columns, rows, source };
}

/** csv-parse reports the line where a record ends; leading blank lines and quoted newlines are counted back. */
function startLine(entry: { raw: string; info: { lines: number } }): number {
  const body = entry.raw.replace(/^(\r?\n)+/, '').replace(/\r?\n$/, '');
  return entry.info.lines - (body.match(/\n/g)?.length ?? 0);
}

/** 1-based column of cell `index` in a raw record, honouring quotes. */
function cellStart(raw: string, index: number): number {
  const text = raw.replace(/^(\r?\n)+/, '');
  if (index <= 0) return 1;
  let cell = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted && ++cell === index) return i + 2;
  }
  return 1;
}
