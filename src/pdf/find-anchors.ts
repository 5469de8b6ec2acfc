import type { PageText, TextBox } from './page-text.js';

/** DocuSign's `anchorUnits` (Swagger: pixels, inches, mms, cms). */
export type AnchorUnits = 'pixels' | 'inches' | 'mms' | 'cms';

/**
 * Points per unit. DocuSign "uses 72 DPI when determining position"
 * (Swagger, xPosition), so a pixel is a point.
 */
export const pointsPerAnchorUnit: Readonly<Record<AnchorUnits, number>> = {
  pixels: 1,
  inches: 72,
  mms: 72 / 25.4,
  cms: 72 / 2.54,
};

/** An anchor as a tab gives it (Swagger's anchor fields; numbers already parsed). */
export interface AnchorQuery {
  readonly anchorString: string;
  readonly anchorXOffset?: number;
  readonly anchorYOffset?: number;
  /** Default pixels (DocuSign's default). */
  readonly anchorUnits?: AnchorUnits;
  /** Default false (Swagger: "The default value is false"). */
  readonly anchorCaseSensitive?: boolean;
  /** Default false (Swagger: "The default value is false": `man` then matches `manpower`). */
  readonly anchorMatchWholeWord?: boolean;
}

/** One occurrence of an anchor, and where a tab placed at it goes. */
export interface AnchorMatch {
  /** 1-based. */
  readonly pageNumber: number;
  /** The text found (its case as in the document). */
  readonly text: string;
  /** Where the found text is drawn (points from the page's top-left, y down). */
  readonly box: TextBox;
  /**
   * The tab's top-left corner: the found text's top-left (anchorHorizontalAlignment
   * `left`, DocuSign's default) moved by the offsets, in points.
   */
  readonly xPosition: number;
  readonly yPosition: number;
}

/** Whether `units` is one of DocuSign's anchor units (case as DocuSign writes them). */
export function isAnchorUnits(units: string): units is AnchorUnits {
  return Object.hasOwn(pointsPerAnchorUnit, units);
}

/** An offset in `units` as points. */
export function anchorOffsetPoints(value: number, units: AnchorUnits = 'pixels'): number {
  return value * pointsPerAnchorUnit[units];
}

/** A letter or digit: what whole-word matching does not allow next to a match (punctuation, dashes and spaces do). */
const wordChar = /[\p{L}\p{N}\p{M}]/u;

/**
 * Every occurrence of an anchor in a document's text, as DocuSign's Swagger
 * describes anchor matching: in every page, line by line (an anchor does not
 * run from one line to the next), whitespace in the anchor matching any
 * whitespace or gap between words; case ignored unless anchorCaseSensitive;
 * with anchorMatchWholeWord, only where no letter or digit touches either end
 * (punctuation and dashes separate words: `forget` is found in
 * `forget-me-not`, `cat` in `-cat-` but not in `1cat2`); accented letters are
 * distinct from plain ones; a single-character anchor found twice in a row
 * (`i` in `skiing`) gives one tab. Occurrences do not overlap.
 */
export function findAnchors(pages: readonly PageText[], query: AnchorQuery): AnchorMatch[] {
  const caseSensitive = query.anchorCaseSensitive ?? false;
  const wholeWord = query.anchorMatchWholeWord ?? false;
  const fold = (s: string) => (caseSensitive ? s : foldCase(s));
  const needle = fold(query.anchorString.replace(/\s+/g, ' ').trim());
  if (needle === '') return [];
  const dx = anchorOffsetPoints(query.anchorXOffset ?? 0, query.anchorUnits);
  const dy = anchorOffsetPoints(query.anchorYOffset ?? 0, query.anchorUnits);
  const single = [...needle].length === 1;
  const found: AnchorMatch[] = [];
  for (const page of pages) {
    for (const line of page.lines) {
      const hay = fold(line.text);
      let lastEnd = -1;
      for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
        const end = at + needle.length;
        if (at < lastEnd) continue; // overlaps the previous occurrence
        if (wholeWord && (wordChar.test(hay[at - 1] ?? ' ') || wordChar.test(hay[end] ?? ' '))) continue;
        if (single && at === lastEnd) {
          lastEnd = end;
          continue;
        }
        lastEnd = end;
        const box = union(line.boxes.slice(at, end));
        found.push({
          pageNumber: page.pageNumber,
          text: line.text.slice(at, end),
          box,
          xPosition: box.left + dx,
          yPosition: box.top + dy,
        });
      }
    }
  }
  return found;
}

/** Lower case, one UTF-16 unit for one (a letter whose lower case is longer, such as İ, is kept), so indexes stay aligned. */
function foldCase(s: string): string {
  let out = '';
  for (const ch of s) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : ch;
  }
  return out;
}

function union(boxes: readonly TextBox[]): TextBox {
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}
