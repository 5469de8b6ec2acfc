import { describe, expect, it } from 'vitest';
import { spreadsheetSafe } from '../../src/output/spreadsheet-cell.js';

describe('spreadsheetSafe', () => {
  it('quotes what a spreadsheet would run as a formula', () => {
    for (const cell of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=x', '\r=x', '=HYPERLINK("http://x")'])
      expect(spreadsheetSafe(cell)).toBe(`'${cell}`);
  });
  it('leaves plain text and plain numbers as they are', () => {
    for (const cell of ['Amy', '', '72000', '-12.5', '+33', '1,5', 'a=b', 'x@example.com'])
      expect(spreadsheetSafe(cell)).toBe(cell);
  });
});
