import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createPageCounts } from '../../src/sandbox/platform/pdf/page-counts.js';
import { quickPageCount } from '../../src/sandbox/platform/pdf/page-count.js';

async function objectStreamPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage();
  return Buffer.from(await pdf.save({ useObjectStreams: true }));
}

describe('createPageCounts', () => {
  it('counts a PDF the quick count cannot, once per sha256, and knows it afterwards', async () => {
    const bytes = await objectStreamPdf(3);
    expect(quickPageCount(bytes)).toBeNull();
    const counts = createPageCounts();
    let reads = 0;
    const read = () => {
      reads++;
      return bytes;
    };
    expect(counts.known('x')).toBeUndefined();
    // Two listings at once: one parse.
    const [a, b] = await Promise.all([counts.count('x', read), counts.count('x', read)]);
    expect([a, b]).toEqual([3, 3]);
    expect(reads).toBe(1);
    expect(counts.known('x')).toBe(3);
    expect(await counts.count('x', read)).toBe(3);
    expect(reads).toBe(1);
  });

  it('answers 0 for bytes pdf-lib cannot parse, and forgets the oldest beyond its capacity', async () => {
    const counts = createPageCounts(2);
    expect(await counts.count('junk', () => Buffer.from('%PDF-1.7 not really'))).toBe(0);
    expect(counts.known('junk')).toBe(0);
    const one = await objectStreamPdf(1);
    const two = await objectStreamPdf(2);
    expect(await counts.count('one', () => one)).toBe(1);
    expect(await counts.count('two', () => two)).toBe(2);
    expect(counts.known('junk')).toBeUndefined();
    expect(counts.known('one')).toBe(1);
    expect(counts.known('two')).toBe(2);
  });
});
