import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { adminErrors } from '../admin-error.js';

/**
 * The columns of DocuSign's bulk user import CSV the sandbox reads (the
 * Support article "Build a CSV to Bulk Add Users"; DocuSign's example
 * userData.csv: AccountID, FirstName, LastName, UserEmail, PermissionSet).
 * Header names compare without case.
 */
export const importColumns = [
  'AccountID',
  'UserName',
  'FirstName',
  'LastName',
  'UserEmail',
  'PermissionSet',
  'UserTitle',
  'CompanyName',
  'Groups',
  'Language',
  'AutoActivate',
] as const;
export type ImportColumn = (typeof importColumns)[number];

/** One data row: its line in the file (1 is the header) and its cells by column. */
export interface ImportRow {
  line: number;
  cells: Partial<Record<ImportColumn, string>>;
  raw: string[];
}

export interface ImportFile {
  header: string[];
  rows: ImportRow[];
  /** Header names the sandbox does not know (DocuSign's invalid_column_headers). */
  unknownHeaders: string[];
}

/** Reads an import CSV; invalid_request (before anything is queued) for one that cannot be read or lacks UserEmail. */
export function parseImportCsv(text: string, needsAccountId: boolean): ImportFile {
  let records: string[][];
  try {
    const parsed: unknown = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
    records = parsed as string[][];
  } catch (error) {
    throw adminErrors.invalidRequest(`invalid_csv_data_or_syntax: ${(error as Error).message}`);
  }
  const [header, ...body] = records;
  if (!header || header.length === 0)
    throw adminErrors.invalidRequest('column_headers_missing: the CSV has no header line.');
  const known = new Map(importColumns.map((c) => [c.toLowerCase(), c]));
  const columns = header.map((h) => known.get(h.trim().toLowerCase()));
  if (!columns.includes('UserEmail'))
    throw adminErrors.invalidRequest('useremail_column_header_missing: the CSV needs a UserEmail column.');
  if (needsAccountId && !columns.includes('AccountID'))
    throw adminErrors.invalidRequest('column_headers_missing: the CSV needs an AccountID column.');
  const rows = body.map((raw, index) => {
    const cells: Partial<Record<ImportColumn, string>> = {};
    columns.forEach((column, i) => {
      const value = raw[i]?.trim();
      if (column !== undefined && value !== undefined && value !== '') cells[column] = value;
    });
    return { line: index + 2, cells, raw };
  });
  return { header, rows, unknownHeaders: header.filter((_, i) => columns[i] === undefined) };
}

/** The results CSV: the file's own columns, then ProcessingResults (what became of the row, with its line). */
export function importResultsCsv(file: ImportFile, results: ReadonlyMap<number, string>): string {
  return stringify([
    [...file.header, 'ProcessingResults'],
    ...file.rows.map((row) => [
      ...file.header.map((_, i) => row.raw[i] ?? ''),
      results.get(row.line) ?? 'no_action_taken',
    ]),
  ]);
}
