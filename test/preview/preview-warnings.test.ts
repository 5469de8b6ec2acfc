import { describe, expect, it } from 'vitest';
import type { PageText, TabBox } from '../../src/pdf/index.js';
import { overlapFindings, overTextFindings, type BoxedTab } from '../../src/preview/preview-warnings.js';
import type { PreviewTab } from '../../src/preview/preview-tabs.js';

const tab = (pageNumber = 1): PreviewTab => ({
  recipient: 0,
  kind: 'text',
  documentId: '1',
  place: { pageNumber, xPosition: 0, yPosition: 0 },
  content: {},
  prefilled: false,
  written: ['recipients', 0],
});
const box = (left: number, top: number, width: number, height: number): TabBox => ({
  left,
  top,
  width,
  height,
  bottom: 792 - top - height,
});

/** One line "Initials:" at x 60, one 6 pt box per letter, 12 pt high. */
const page: PageText = {
  pageNumber: 1,
  width: 612,
  height: 792,
  lines: [
    {
      text: 'Initials:',
      boxes: [...'Initials:'].map((_, i) => ({ left: 60 + i * 6, top: 700, right: 66 + i * 6, bottom: 712 })),
    },
  ],
};

/** A signature line of underscores at y 650. */
const rule: PageText = {
  ...page,
  lines: [
    { text: '____', boxes: [0, 1, 2, 3].map((i) => ({ left: 60 + i * 6, top: 650, right: 66 + i * 6, bottom: 662 })) },
  ],
};

describe('preview warnings', () => {
  it('a tab over the underscores of a line to sign on is where it belongs', () => {
    expect(overTextFindings([{ tab: tab(), box: box(55, 630, 180, 48) }], () => [rule])).toEqual([]);
  });

  it('a tab over text names the text it covers; one set after it on its line does not', () => {
    const over: BoxedTab = { tab: tab(), box: box(70, 698, 60, 18) };
    const beside: BoxedTab = { tab: tab(), box: box(114, 698, 60, 18) };
    const found = overTextFindings([over, beside], () => [page]);
    expect(found.map((f) => [f.code, f.tab === over.tab])).toEqual([['SR_PREVIEW_TAB_OVER_TEXT', true]]);
    // Letters whose centre is inside the box: "I" and "n" are left of it.
    expect(found[0]!.message).toContain('covers the text "itials:"');
  });

  it('two tabs of a page overlap; touching edges, or the same place on another page, do not', () => {
    const a: BoxedTab = { tab: tab(), box: box(100, 100, 100, 20) };
    const b: BoxedTab = { tab: tab(), box: box(150, 110, 100, 20) };
    const touching: BoxedTab = { tab: tab(), box: box(200, 100, 50, 10) };
    const elsewhere: BoxedTab = { tab: tab(2), box: box(100, 100, 100, 20) };
    const found = overlapFindings([a, touching, elsewhere, b]);
    expect(found).toHaveLength(1);
    expect(found[0]!.tab).toBe(b.tab);
    expect(found[0]!.code).toBe('SR_PREVIEW_TABS_OVERLAP');
  });
});
