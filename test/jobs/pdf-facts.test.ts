import { describe, expect, it } from 'vitest';
import { PDFDocument, degrees } from 'pdf-lib';
import { cheapPageSizes } from '../../src/jobs/pdf-facts.js';

async function makePdf(options: {
  objectStreams: boolean;
  sizes: Array<[number, number]>;
  rotate?: number;
}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const size of options.sizes) {
    const page = doc.addPage(size);
    if (options.rotate) page.setRotation(degrees(options.rotate));
  }
  return Buffer.from(await doc.save({ useObjectStreams: options.objectStreams }));
}

async function pdfLibSizes(bytes: Buffer) {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((p) => {
    const { width, height } = p.getSize();
    return p.getRotation().angle % 180 !== 0 ? { width: height, height: width } : { width, height };
  });
}

describe('cheapPageSizes', () => {
  it.each([true, false])('agrees with pdf-lib (object streams: %s)', async (objectStreams) => {
    const bytes = await makePdf({
      objectStreams,
      sizes: [
        [595, 842],
        [842, 595],
        [612, 792],
      ],
    });
    const cheap = cheapPageSizes(bytes);
    expect(cheap).toEqual(await pdfLibSizes(bytes));
    expect(cheap).toHaveLength(3);
  });

  it('swaps width and height of pages rotated by a quarter turn', async () => {
    const bytes = await makePdf({ objectStreams: true, sizes: [[595, 842]], rotate: 90 });
    expect(cheapPageSizes(bytes)).toEqual([{ width: 842, height: 595 }]);
  });

  it('gives up (undefined) rather than guess on what it cannot read', () => {
    expect(cheapPageSizes(Buffer.from('%PDF-1.7\nnot really a pdf\n'))).toBeUndefined();
    const bytes = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 2 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 100 200] >> endobj\ntrailer << /Root 1 0 R >>\nstartxref\n0\n%%EOF\n',
    );
    // /Count says 2, the tree holds 1: pdf-lib must decide.
    expect(cheapPageSizes(bytes)).toBeUndefined();
  });

  it('reads a hand-written classic PDF with an inherited MediaBox', () => {
    const bytes = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 100 200] >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Rotate 270 >> endobj\ntrailer << /Root 1 0 R >>\nstartxref\n0\n%%EOF\n',
    );
    expect(cheapPageSizes(bytes)).toEqual([
      { width: 100, height: 200 },
      { width: 400, height: 300 },
    ]);
  });
});
