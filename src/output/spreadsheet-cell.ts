/**
 * A CSV cell that a spreadsheet shows as text. Excel, LibreOffice and Google
 * Sheets run a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return as a formula, and the values in signrun's CSVs were typed by
 * signers or written in job files: such a cell gets a leading `'` (OWASP's
 * advice on CSV injection), which the spreadsheet hides. A number such as
 * `-12.5` is left as it is: it cannot run, and HR would want to add it up.
 */
export function spreadsheetSafe(cell: string): string {
  if (!/^[=+\-@\t\r]/.test(cell)) return cell;
  if (/^[+-]?\d+(?:[.,]\d+)?$/.test(cell)) return cell;
  return `'${cell}`;
}
