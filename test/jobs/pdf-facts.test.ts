import { describe, expect, it } from 'vitest';
import { PDFDocument, degrees } from 'pdf-lib';
import { deflateSync } from 'node:zlib';
import { cheapPageSizes, inflateBudgetProblem } from '../../src/jobs/pdf-facts.js';

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

/** A PDF body holding object streams of the given (already compressed) data, each with its filters. */
function objectStreams(streams: Array<{ data: Buffer; filters: string }>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  streams.forEach(({ data, filters }, i) => {
    parts.push(
      Buffer.from(
        `${i + 1} 0 obj\n<< /Type /ObjStm /N 0 /First 0 /Filter ${filters} /Length ${data.length} >>\nstream\n`,
      ),
    );
    parts.push(data, Buffer.from('\nendstream\nendobj\n'));
  });
  parts.push(Buffer.from('startxref\n0\n%%EOF\n'));
  return Buffer.concat(parts);
}

describe('inflateBudgetProblem', () => {
  // Zeros deflate at close to the format's most (about 1,030 to 1): what a stream could inflate to
  // when nothing is inflated must never be read as less than what it does inflate to.
  const zeros = Buffer.alloc(8 * 1024 * 1024);
  const packed = deflateSync(zeros, { level: 9 });

  it('refuses a stream one byte over the budget, at the densest deflate', () => {
    expect(zeros.length / packed.length).toBeGreaterThan(1000);
    const pdf = objectStreams([{ data: packed, filters: '/FlateDecode' }]);
    expect(inflateBudgetProblem(pdf, zeros.length - 1)).toMatch(/inflate to more than/);
    expect(inflateBudgetProblem(pdf, zeros.length + 1)).toBeUndefined();
  });

  it('counts every stage of a chain of filters, and every stream of the file', () => {
    const twice = deflateSync(packed);
    const chained = objectStreams([{ data: twice, filters: '[/FlateDecode /FlateDecode]' }]);
    expect(inflateBudgetProblem(chained, zeros.length + packed.length - 1)).toMatch(/inflate to more than/);
    expect(inflateBudgetProblem(chained, zeros.length + packed.length + 1)).toBeUndefined();
    const small = deflateSync(Buffer.alloc(1000));
    const two = objectStreams([
      { data: small, filters: '/FlateDecode' },
      { data: packed, filters: '/FlateDecode' },
    ]);
    expect(inflateBudgetProblem(two, zeros.length + 999)).toMatch(/inflate to more than/);
    expect(inflateBudgetProblem(two, zeros.length + 1001)).toBeUndefined();
  });

  it('names a filter it does not read, before or after streams within the budget', () => {
    const lzw = { data: Buffer.from('x'), filters: '/LZWDecode' };
    const flate = { data: deflateSync(Buffer.alloc(100)), filters: '/FlateDecode' };
    expect(inflateBudgetProblem(objectStreams([flate, lzw]), 1 << 20)).toMatch(/compressed with \/LZWDecode/);
    expect(inflateBudgetProblem(objectStreams([lzw, flate]), 1 << 20)).toMatch(/compressed with \/LZWDecode/);
    // A stream over the budget before it is what is said.
    const big = { data: packed, filters: '/FlateDecode' };
    expect(inflateBudgetProblem(objectStreams([big, lzw]), 1 << 20)).toMatch(/inflate to more than/);
  });
});
