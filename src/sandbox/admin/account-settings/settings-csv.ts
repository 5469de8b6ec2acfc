import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { adminErrors } from '../admin-error.js';
import { settingNamePattern } from './account-settings-store.js';

/**
 * The account settings CSV of the sandbox's export and import: a `setting`
 * column, then one column per account, headed by its account id; a cell is
 * the setting's value in that account (empty: not set, or left as it is on
 * import).
 */
export function settingsCsv(accounts: ReadonlyArray<{ accountId: string; settings: Record<string, string> }>): string {
  const names = [...new Set(accounts.flatMap((a) => Object.keys(a.settings)))].sort();
  return stringify([
    ['setting', ...accounts.map((a) => a.accountId)],
    ...names.map((name) => [name, ...accounts.map((a) => a.settings[name] ?? '')]),
  ]);
}

/** Reads a settings CSV into each account's settings; invalid_request naming the line of a bad row. */
export function parseSettingsCsv(text: string): Array<{ accountId: string; settings: Record<string, string> }> {
  let rows: string[][];
  try {
    const parsed: unknown = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false });
    rows = parsed as string[][];
  } catch (error) {
    throw adminErrors.invalidRequest(`The CSV cannot be read: ${(error as Error).message}`);
  }
  const [header, ...body] = rows;
  if (!header || header[0]?.trim().toLowerCase() !== 'setting' || header.length < 2)
    throw adminErrors.invalidRequest("The CSV's first line must be: setting,<accountId>,<accountId>…");
  const accounts = header.slice(1).map((id) => {
    const settings: Record<string, string> = {};
    return { accountId: id.trim().toLowerCase(), settings };
  });
  body.forEach((row, index) => {
    const name = row[0]?.trim() ?? '';
    if (!settingNamePattern.test(name))
      throw adminErrors.invalidRequest(`Line ${index + 2} of the CSV: '${name}' is not a setting name.`);
    accounts.forEach((account, column) => {
      const value = row[column + 1] ?? '';
      if (value !== '') account.settings[name] = value;
    });
  });
  return accounts;
}
