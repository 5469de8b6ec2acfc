import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { anchorOffsetPoints, findAnchors, readPageText, type AnchorMatch, type PageText } from '../../src/pdf/index.js';
import { tempPdf } from '../signing/pdf-tools.js';
import { popplerWords, type PopplerWord } from './poppler.js';

/**
 * A Letter page of known text (Helvetica 12), a word drawn in two pieces on
 * one line, words for the matching rules, and a landscape page stored as a
 * portrait one with /Rotate 90 (a scanner's habit) whose text reads upright.
 */
async function knownPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const at = (text: string, x: number, y: number) => page.drawText(text, { x, y, size: 12, font });
  at('Please sign here: Signature', 72, 700);
  at('Sig', 72, 600);
  at('nature', 72 + font.widthOfTextAtSize('Sig', 12), 600);
  at('SIGNATURE of the manager', 300, 500);
  at('manpower fireman forget-me-not 1cat2 -cat- skiing', 72, 400);
  const turned = doc.addPage([612, 792]);
  turned.setRotation(degrees(90));
  // Upright on the displayed (landscape) page: drawn turned a quarter the other way.
  turned.drawText('Initial here', { x: 300, y: 100, size: 12, font, rotate: degrees(90) });
  return doc.save();
}

const near = (a: number, b: number, tolerance = 1) => Math.abs(a - b) <= tolerance;

/** Whether poppler's word holds the match: same start (or the match starts inside it), same line. */
function agrees(match: AnchorMatch, word: PopplerWord): boolean {
  const baseline = match.box.bottom; // our box runs from the baseline up by the font size
  return (
    match.box.left >= word.xMin - 1 &&
    match.box.left < word.xMax &&
    match.box.right <= word.xMax + 1 &&
    baseline > word.yMin &&
    baseline < word.yMax + 1
  );
}

describe('readPageText and findAnchors against poppler', () => {
  it('finds every occurrence where pdftotext -bbox sees the word, a word drawn in two pieces included', async () => {
    const bytes = await knownPdf();
    const [page1] = await popplerWords(tempPdf(bytes));
    const pages = await readPageText(bytes);
    const found = findAnchors(pages, { anchorString: 'Signature', anchorCaseSensitive: true });
    expect(found.map((m) => m.text)).toEqual(['Signature', 'Signature']);
    const words = page1!.words.filter((w) => w.word === 'Signature');
    // Poppler, too, reads the two pieces as one word.
    expect(words).toHaveLength(2);
    for (const word of words) {
      const match = found.find((m) => agrees(m, word));
      expect(match, `no match for poppler's word at ${word.xMin},${word.yMin}`).toBeDefined();
      expect(near(match!.box.left, word.xMin)).toBe(true);
      expect(near(match!.box.right, word.xMax)).toBe(true);
      expect(match!.xPosition).toBe(match!.box.left);
      expect(match!.yPosition).toBe(match!.box.top);
    }
    // The word mid-line starts where poppler says, not at the run's start (72).
    expect(found.some((m) => m.box.left > 150 && m.pageNumber === 1)).toBe(true);
  });

  it('reads a /Rotate 90 page as displayed: its size turned, the anchor where poppler sees it', async () => {
    const bytes = await knownPdf();
    const poppler = await popplerWords(tempPdf(bytes));
    const pages = await readPageText(bytes);
    expect([pages[1]!.width, pages[1]!.height]).toEqual([792, 612]);
    // poppler gives the page's stored size (portrait) but its words as displayed.
    expect([poppler[1]!.width, poppler[1]!.height]).toEqual([612, 792]);
    const [match] = findAnchors(pages, { anchorString: 'initial' });
    expect(match?.pageNumber).toBe(2);
    const word = poppler[1]!.words.find((w) => w.word === 'Initial')!;
    expect(agrees(match!, word)).toBe(true);
    expect(near(match!.box.left, word.xMin)).toBe(true);
  });

  it('finds every whole word of the example documents where poppler sees it', async () => {
    const files = fg.sync('examples/docs/*.pdf');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      const poppler = await popplerWords(file);
      const pages = await readPageText(bytes);
      expect(pages.map((p) => [p.width, p.height])).toEqual(poppler.map((p) => [p.width, p.height]));
      let checked = 0;
      poppler.forEach((page, i) => {
        for (const word of page.words) {
          const plain = word.word.replace(/[.,:;)]+$/, '');
          if (!/^[\p{L}\p{N}]+$/u.test(plain)) continue;
          const found = findAnchors([pages[i]!], {
            anchorString: plain,
            anchorCaseSensitive: true,
            anchorMatchWholeWord: true,
          });
          const match = found.find((m) => agrees(m, word));
          expect(match, `${file} p${i + 1}: "${plain}" at ${word.xMin},${word.yMin}`).toBeDefined();
          expect(
            near(match!.box.left, word.xMin),
            `${file}: "${plain}" starts at ${match!.box.left}, poppler ${word.xMin}`,
          ).toBe(true);
          // And every match of the word is one poppler sees too.
          for (const m of found) expect(page.words.some((w) => agrees(m, w))).toBe(true);
          checked++;
        }
      });
      expect(checked).toBeGreaterThan(10);
    }
  });
});

describe('findAnchors follows the Swagger rules', () => {
  let pages: PageText[];
  const find = async (q: Parameters<typeof findAnchors>[1]) => {
    pages ??= await readPageText(await knownPdf());
    return findAnchors(pages, q).map((m) => m.text);
  };

  it('ignores case by default (anchorCaseSensitive false) and keeps it when asked', async () => {
    expect(await find({ anchorString: 'signature' })).toEqual(['Signature', 'Signature', 'SIGNATURE']);
    expect(await find({ anchorString: 'SIGNATURE', anchorCaseSensitive: true })).toEqual(['SIGNATURE']);
    expect(await find({ anchorString: 'sIgnature', anchorCaseSensitive: true })).toEqual([]);
  });

  it('matches inside words by default, whole words only with anchorMatchWholeWord', async () => {
    expect(await find({ anchorString: 'man' })).toEqual(['man', 'man', 'man']);
    expect(await find({ anchorString: 'man', anchorMatchWholeWord: true })).toEqual([]);
    expect(await find({ anchorString: 'manager', anchorMatchWholeWord: true })).toEqual(['manager']);
    // Dashes and punctuation separate words; digits do not.
    expect(await find({ anchorString: 'forget', anchorMatchWholeWord: true })).toEqual(['forget']);
    expect(await find({ anchorString: 'cat', anchorMatchWholeWord: true })).toHaveLength(1);
    expect(await find({ anchorString: 'cat' })).toHaveLength(2);
    expect(await find({ anchorString: 'here', anchorMatchWholeWord: true })).toHaveLength(2);
  });

  it('gives one tab for a single character found twice in a row, and matches across a gap between words', async () => {
    const line = (await readPageText(await knownPdf()))[0]!.lines.find((l) => l.text.includes('skiing'))!;
    // One in "fireman", one for the "ii" of "skiing"; a letter apart each time (manpower, fireman, not, skiing) gives one each.
    expect(
      findAnchors([{ pageNumber: 1, width: 612, height: 792, lines: [line] }], { anchorString: 'i' }),
    ).toHaveLength(2);
    expect(
      findAnchors([{ pageNumber: 1, width: 612, height: 792, lines: [line] }], { anchorString: 'n' }),
    ).toHaveLength(4);
    expect(await find({ anchorString: 'sign   here:' })).toEqual(['sign here:']);
    expect(await find({ anchorString: 'here: Sig', anchorCaseSensitive: true })).toEqual(['here: Sig']);
  });

  it('moves the tab by the offsets, converted from anchorUnits to points', async () => {
    pages ??= await readPageText(await knownPdf());
    const [base] = findAnchors(pages, { anchorString: 'Initial' });
    for (const [units, x, y, dx, dy] of [
      ['pixels', 10, -5, 10, -5],
      ['inches', 1, 0.5, 72, 36],
      ['mms', 25.4, 0, 72, 0],
      ['cms', 2.54, -2.54, 72, -72],
    ] as const) {
      const [moved] = findAnchors(pages, {
        anchorString: 'Initial',
        anchorXOffset: x,
        anchorYOffset: y,
        anchorUnits: units,
      });
      expect(moved!.xPosition - base!.xPosition).toBeCloseTo(dx, 9);
      expect(moved!.yPosition - base!.yPosition).toBeCloseTo(dy, 9);
    }
    expect(anchorOffsetPoints(3)).toBe(3);
  });
});
