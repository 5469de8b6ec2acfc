import { describe, expect, it } from 'vitest';
import { stampSignatures, StampPageError } from '../../src/sandbox/platform/pdf/stamp-signatures.js';
import { samplePdf, tempPdf, tool, wordsOnPage } from './pdf-tools.js';

describe('stampSignatures', () => {
  it('draws the typed name and time at the tab position, measured from the top-left', async () => {
    const pdf = await samplePdf('contract', 2);
    const stamped = await stampSignatures(pdf, [
      {
        pageNumber: 2,
        xPosition: 100,
        yPosition: 150,
        name: 'Jean Français',
        signedAt: new Date('2026-11-20T10:11:12Z'),
      },
    ]);
    const path = tempPdf(stamped);
    expect((await tool('qpdf', ['--check', path])).code).toBe(0);

    const page2 = await wordsOnPage(path, 2);
    const jean = page2.find((w) => w.word === 'Jean');
    expect(jean).toBeDefined();
    // Box top at y=150 (top-left origin); the name sits inside the 48 pt box.
    expect(jean!.xMin).toBeGreaterThanOrEqual(100);
    expect(jean!.xMin).toBeLessThan(110);
    expect(jean!.yMin).toBeGreaterThan(150);
    expect(jean!.yMax).toBeLessThan(150 + 48);
    expect(page2.map((w) => w.word)).toContain('Français');
    expect(page2.map((w) => w.word)).toContain('10:11:12');

    const page1 = await wordsOnPage(path, 1);
    expect(page1.map((w) => w.word)).not.toContain('Jean');
  });

  it('keeps every earlier stamp when a second signer signs the same document', async () => {
    const first = await stampSignatures(await samplePdf('nda'), [
      { pageNumber: 1, xPosition: 72, yPosition: 600, name: 'Alice Martin', signedAt: new Date() },
    ]);
    const second = await stampSignatures(first, [
      { pageNumber: 1, xPosition: 320, yPosition: 600, name: 'Bob Durand', signedAt: new Date() },
    ]);
    const path = tempPdf(second);
    expect((await tool('qpdf', ['--check', path])).code).toBe(0);
    const text = (await tool('pdftotext', [path, '-'])).out;
    expect(text).toContain('Alice Martin');
    expect(text).toContain('Bob Durand');
  });

  it('pulls a box that would run off the page back inside it', async () => {
    const stamped = await stampSignatures(await samplePdf('edge', 1, [300, 300]), [
      { pageNumber: 1, xPosition: 290, yPosition: 295, name: 'Edge Case', signedAt: new Date() },
    ]);
    const words = await wordsOnPage(tempPdf(stamped), 1);
    const edge = words.find((w) => w.word === 'Edge');
    expect(edge).toBeDefined();
    expect(edge!.xMin).toBeLessThan(300 - 100);
    expect(edge!.yMax).toBeLessThanOrEqual(300);
  });

  it('replaces characters the standard font cannot encode instead of failing', async () => {
    const stamped = await stampSignatures(await samplePdf('unicode'), [
      { pageNumber: 1, xPosition: 72, yPosition: 200, name: 'Zoë Łukasz 李', signedAt: new Date() },
    ]);
    const text = (await tool('pdftotext', [tempPdf(stamped), '-'])).out;
    expect(text).toContain('Zoë');
    expect(text).toMatch(/\?ukasz \?/);
  });

  it('refuses a page the document does not have', async () => {
    await expect(
      stampSignatures(await samplePdf('short', 1), [
        { pageNumber: 3, xPosition: 1, yPosition: 1, name: 'X', signedAt: new Date() },
      ]),
    ).rejects.toBeInstanceOf(StampPageError);
  });
});
