import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { quickPageCount, looksLikePdf } from '../../src/sandbox/platform/pdf/page-count.js';

describe('quickPageCount', () => {
  it('counts /Type /Page objects, not /Pages, in real PDFs', async () => {
    for (const pages of [1, 2, 7]) {
      const pdf = await PDFDocument.create();
      for (let i = 0; i < pages; i++) pdf.addPage();
      expect(quickPageCount(Buffer.from(await pdf.save({ useObjectStreams: false })))).toBe(pages);
    }
  });

  it('accepts spacing variants and answers null when pages are hidden in object streams', async () => {
    expect(
      quickPageCount(
        Buffer.from('%PDF-1.4\n1 0 obj <</Type/Page>> 2 0 obj <</Type\n/Page /Parent 3 0 R>> 3 0 obj <</Type /Pages>>'),
      ),
    ).toBe(2);
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const compressed = Buffer.from(await pdf.save({ useObjectStreams: true }));
    expect(quickPageCount(compressed)).toBeNull();
    expect(looksLikePdf(compressed)).toBe(true);
    expect(looksLikePdf(Buffer.from('hello'))).toBe(false);
  });
});
