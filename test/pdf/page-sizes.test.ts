import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { degrees, PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pageSizes, readPageText } from '../../src/pdf/index.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';

describe('pageSizes', () => {
  it('gives each page as displayed, as pdf.js and poppler’s pdfinfo see it', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    doc.addPage([612, 792]).setRotation(degrees(90));
    doc.addPage([300, 200]).setRotation(degrees(180));
    const made = await doc.save();
    for (const bytes of [made, ...fg.sync('examples/docs/*.pdf').map((f) => readFileSync(f))]) {
      const sizes = await pageSizes(bytes);
      expect(sizes).toEqual((await readPageText(bytes)).map((p) => ({ width: p.width, height: p.height })));
      const info = (await tool('pdfinfo', ['-f', '1', '-l', String(sizes.length), tempPdf(bytes)])).out;
      const fromPoppler = [...info.matchAll(/Page +\d+ size: +([\d.]+) x ([\d.]+) pts.*\nPage +\d+ rot: +(\d+)/g)].map(
        (m) =>
          Number(m[3]) % 180 === 90
            ? { width: Number(m[2]), height: Number(m[1]) }
            : { width: Number(m[1]), height: Number(m[2]) },
      );
      expect(sizes).toEqual(fromPoppler);
    }
    expect(await pageSizes(made)).toEqual([
      { width: 612, height: 792 },
      { width: 792, height: 612 },
      { width: 300, height: 200 },
    ]);
  });
});
