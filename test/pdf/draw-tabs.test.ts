import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { tabKind, tabKinds } from '../../src/envelope/index.js';
import {
  drawTabs,
  findAnchors,
  readPageText,
  tabBox,
  tabSize,
  TabPageError,
  type TabToDraw,
} from '../../src/pdf/index.js';
import { tempPdf } from '../signing/pdf-tools.js';
import { popplerWords, type PopplerWord } from './poppler.js';

async function blank(pages = 1, size: [number, number] = [612, 792]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage(size);
  return doc.save();
}

/** The words poppler reads inside a tab's box (half a point of slack for rounding). */
function wordsIn(words: PopplerWord[], box: { left: number; top: number; width: number; height: number }): string[] {
  return words
    .filter(
      (w) =>
        w.xMin >= box.left - 0.5 &&
        w.xMax <= box.left + box.width + 0.5 &&
        w.yMin >= box.top - 0.5 &&
        w.yMax <= box.top + box.height + 0.5,
    )
    .map((w) => w.word);
}

const page = { width: 612, height: 792 };
const boxOf = (tab: TabToDraw) => tabBox(tab, tabSize(tab.kind, tab), page);

describe('drawTabs', () => {
  it('draws each style so that poppler reads its value inside the tab box', async () => {
    const tabs: TabToDraw[] = [
      {
        kind: 'signHere',
        pageNumber: 1,
        xPosition: 72,
        yPosition: 72,
        value: 'Jean Français',
        signedAt: new Date('2026-11-20T10:11:12Z'),
      },
      {
        kind: 'initialHere',
        pageNumber: 1,
        xPosition: 300,
        yPosition: 72,
        value: 'JF',
        signedAt: new Date('2026-11-20T10:11:12Z'),
      },
      { kind: 'text', pageNumber: 1, xPosition: 72, yPosition: 200, value: 'Acme France' },
      { kind: 'dateSigned', pageNumber: 1, xPosition: 300, yPosition: 200, value: '2026-11-20' },
      { kind: 'checkbox', pageNumber: 1, xPosition: 72, yPosition: 260, selected: true },
      { kind: 'list', pageNumber: 1, xPosition: 72, yPosition: 320, value: 'Lyon' },
      { kind: 'radioGroup', pageNumber: 1, xPosition: 300, yPosition: 320, value: 'Yes', selected: true },
      { kind: 'approve', pageNumber: 1, xPosition: 72, yPosition: 380, label: 'Approve' },
      { kind: 'signerAttachment', pageNumber: 1, xPosition: 300, yPosition: 380, width: 120, label: 'Passport' },
      { kind: 'note', pageNumber: 1, xPosition: 72, yPosition: 440, width: 300, height: 24, value: 'Read carefully' },
    ];
    const [drawn] = await popplerWords(tempPdf(await drawTabs(await blank(), tabs)));
    const expected = [
      ['Jean', 'Français', '10:11:12'],
      ['JF'],
      ['Acme', 'France'],
      ['2026-11-20'],
      ['X'],
      ['Lyon'],
      ['X'],
      ['Approve'],
      ['Passport'],
      ['Read', 'carefully'],
    ];
    tabs.forEach((tab, i) => {
      expect(wordsIn(drawn!.words, boxOf(tab)), tab.kind).toEqual(expect.arrayContaining(expected[i]!));
    });
    // The radio's value is written just right of its box, on its line.
    const radio = boxOf(tabs[6]!);
    const yes = drawn!.words.find((w) => w.word === 'Yes')!;
    expect(yes.xMin).toBeGreaterThanOrEqual(radio.left + radio.width);
    expect(yes.xMin).toBeLessThan(radio.left + radio.width + 6);
    expect(yes.yMin).toBeGreaterThanOrEqual(radio.top - 1);
    expect(yes.yMax).toBeLessThanOrEqual(radio.top + radio.height + 1);
    // Every other drawn word is inside some tab's box: nothing is drawn elsewhere.
    for (const word of drawn!.words.filter((w) => w !== yes))
      expect(
        tabs.some((t) => wordsIn([word], boxOf(t)).length === 1),
        word.word,
      ).toBe(true);
  });

  it('leaves an unselected checkbox empty and gives a tab without width its kind’s default size', async () => {
    const [drawn] = await popplerWords(
      tempPdf(await drawTabs(await blank(), [{ kind: 'checkbox', pageNumber: 1, xPosition: 72, yPosition: 72 }])),
    );
    expect(drawn!.words).toEqual([]);
    for (const kind of tabKinds) expect(tabSize(kind.name)).toEqual(kind.defaultSize);
    expect(tabSize('text', { width: 300 })).toEqual({ width: 300, height: tabKind('text').defaultSize.height });
    expect(tabSize('text', { width: 0, height: -1 })).toEqual(tabKind('text').defaultSize);
  });

  it('pulls a box that would leave the page back inside it, and draws it there', async () => {
    const small = { width: 300, height: 300 };
    const box = tabBox({ xPosition: 290, yPosition: 295 }, tabSize('text'), small);
    expect(box).toMatchObject({ left: 140, top: 282, width: 160, height: 18, bottom: 0 });
    const [drawn] = await popplerWords(
      tempPdf(
        await drawTabs(await blank(1, [300, 300]), [
          { kind: 'text', pageNumber: 2 - 1, xPosition: 290, yPosition: 295, value: 'Edge' },
        ]),
      ),
    );
    expect(wordsIn(drawn!.words, box)).toEqual(['Edge']);
  });

  it('draws a tab placed by anchor where findAnchors put it (one layer: found and drawn alike)', async () => {
    const pdf = readFileSync('examples/docs/renewal-terms.pdf');
    const pages = await readPageText(pdf);
    const places = findAnchors(pages, { anchorString: 'signature of the', anchorYOffset: 0.5, anchorUnits: 'inches' });
    expect(places).toHaveLength(2);
    const tabs = places.map((p, i): TabToDraw => ({ kind: 'fullName', ...p, value: `Signer${i + 1}` }));
    const drawn = await popplerWords(tempPdf(await drawTabs(pdf, tabs)));
    tabs.forEach((tab, i) => {
      expect(tab.yPosition - places[i]!.box.top).toBe(36);
      expect(wordsIn(drawn[tab.pageNumber - 1]!.words, boxOf(tab))).toEqual([`Signer${i + 1}`]);
    });
  });

  it('refuses a page the document does not have', async () => {
    await expect(
      drawTabs(await blank(1), [{ kind: 'text', pageNumber: 2, xPosition: 1, yPosition: 1 }]),
    ).rejects.toBeInstanceOf(TabPageError);
  });
});
