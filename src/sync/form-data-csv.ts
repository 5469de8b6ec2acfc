import { stringify } from 'csv-stringify/sync';
import { tabKinds } from '../envelope/index.js';
import type { FormDataJson } from '../output/records.js';
import { spreadsheetSafe } from '../output/spreadsheet-cell.js';

/** One completed envelope of a job, for its row of form-data.csv. */
export interface FormDataRow {
  key: string;
  status: string;
  formData: FormDataJson;
}

const valueKinds = new Set<string>(tabKinds.filter((k) => k.valueType !== 'none').map((k) => k.name));

/**
 * `<job>/form-data.csv`: one row per completed envelope (`key`, `status`),
 * then one column per tab label that holds a value, in the order the
 * labels first appear. A label met twice in one envelope (the same "Date
 * Signed" for two signers) gets a second column, `Date Signed #2`, so no
 * value hides another; a label named `key` or `status` is numbered the same
 * way. Cells a spreadsheet would run as a formula are quoted
 * (spreadsheet-cell.ts).
 */
export function formDataCsv(rows: readonly FormDataRow[]): string {
  const columns: string[] = ['key', 'status'];
  const known = new Set(columns);
  const cells = rows.map((row) => {
    const seen = new Map<string, number>([
      ['key', 1],
      ['status', 1],
    ]);
    const values = new Map<string, string>();
    for (const recipient of row.formData.recipients)
      for (const tab of recipient.tabs) {
        if (!valueKinds.has(tab.kind)) continue;
        const n = (seen.get(tab.label) ?? 0) + 1;
        seen.set(tab.label, n);
        const column = n === 1 ? tab.label : `${tab.label} #${n}`;
        if (!known.has(column)) {
          known.add(column);
          columns.push(column);
        }
        values.set(column, tab.value);
      }
    return { row, values };
  });
  const records = cells.map(({ row, values }) =>
    columns.map((c) => spreadsheetSafe(c === 'key' ? row.key : c === 'status' ? row.status : (values.get(c) ?? ''))),
  );
  return stringify(records, { header: true, columns: columns.map(spreadsheetSafe) });
}
