import type { PageText, TabBox, TextLineFit } from '../pdf/index.js';
import type { PreviewTab } from './preview-tabs.js';

/** A tab with the box it is drawn in. */
export interface BoxedTab {
  readonly tab: PreviewTab;
  readonly box: TabBox;
  /** How its value is set in its box (text and list drawings with a value), measured in the stamp's font. */
  readonly fit?: TextLineFit;
}

/** Something a person should look at before sending, about one tab (and, for an overlap, the other one). */
export interface PreviewFinding {
  readonly code: 'SR_PREVIEW_VALUE_OVERFLOW' | 'SR_PREVIEW_TABS_OVERLAP' | 'SR_PREVIEW_TAB_OVER_TEXT';
  readonly tab: PreviewTab;
  readonly message: string;
}

/** Less than this (points, each way) is two edges touching, not one box over another. */
const overlapTolerance = 1;

function overlap(a: TabBox, b: { left: number; top: number; right: number; bottom: number }): boolean {
  const width = Math.min(a.left + a.width, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.top + a.height, b.bottom) - Math.max(a.top, b.top);
  return width > overlapTolerance && height > overlapTolerance;
}

const pt = (n: number) => `${Math.round(n * 10) / 10} pt`;

function where(t: BoxedTab): string {
  const name = t.tab.tabLabel === undefined ? t.tab.kind : `${t.tab.kind} "${t.tab.tabLabel}"`;
  return `${name} (document ${t.tab.documentId}, page ${t.tab.place.pageNumber})`;
}

/**
 * A prefilled value wider than its box, in the font and size the stamp sets
 * it in: the sandbox then shrinks it (never below 6 pt), DocuSign cuts it off.
 */
export function overflowFindings(tabs: readonly BoxedTab[]): PreviewFinding[] {
  return tabs.flatMap((t) =>
    t.fit !== undefined && t.tab.prefilled && t.fit.width > t.fit.room
      ? [
          {
            code: 'SR_PREVIEW_VALUE_OVERFLOW' as const,
            tab: t.tab,
            message: `the value "${t.fit.shown}" of ${where(t)} is ${pt(t.fit.width)} wide in ${t.fit.preferredSize} pt Helvetica; its box holds ${pt(t.fit.room)}`,
          },
        ]
      : [],
  );
}

/** Two tabs of one page whose boxes overlap: reported once, at the later tab. */
export function overlapFindings(tabs: readonly BoxedTab[]): PreviewFinding[] {
  const found: PreviewFinding[] = [];
  for (const [i, a] of tabs.entries()) {
    for (const b of tabs.slice(0, i)) {
      if (a.tab.documentId !== b.tab.documentId || a.tab.place.pageNumber !== b.tab.place.pageNumber) continue;
      const bBox = {
        left: b.box.left,
        top: b.box.top,
        right: b.box.left + b.box.width,
        bottom: b.box.top + b.box.height,
      };
      if (!overlap(a.box, bBox)) continue;
      found.push({
        code: 'SR_PREVIEW_TABS_OVERLAP',
        tab: a.tab,
        message: `${where(a)} overlaps ${where(b).replace(/ \(document .*\)$/, '')}`,
      });
    }
  }
  return found;
}

/** Spaces, and the rules and dots a form draws for someone to write on: a tab over them is where it belongs. */
const fillIn = /^[\s_.\u2026\u2010-\u2015-]?$/;

/**
 * A tab whose box covers text of its page: a character (not a space, nor the
 * underscores or dots of a line to sign on) whose centre is inside the box.
 * Centres, not boxes: a tab set just after a label on its line touches the
 * label's box edges without hiding it.
 */
export function overTextFindings(
  tabs: readonly BoxedTab[],
  pagesOf: (documentId: string) => readonly PageText[],
): PreviewFinding[] {
  const found: PreviewFinding[] = [];
  for (const t of tabs) {
    const page = pagesOf(t.tab.documentId)[t.tab.place.pageNumber - 1];
    if (page === undefined) continue;
    const { left, top, width, height } = t.box;
    const covered: string[] = [];
    for (const line of page.lines) {
      let run = '';
      for (const [i, box] of line.boxes.entries()) {
        const ch = line.text[i] ?? '';
        const x = (box.left + box.right) / 2;
        const y = (box.top + box.bottom) / 2;
        const inside = !fillIn.test(ch) && x > left && x < left + width && y > top && y < top + height;
        if (inside || (run !== '' && ch === ' ' && i + 1 < line.boxes.length)) run += ch;
        else if (run !== '') {
          covered.push(run.trim());
          run = '';
        }
      }
      if (run.trim() !== '') covered.push(run.trim());
    }
    const text = covered.filter((s) => s !== '').join(' … ');
    if (text !== '')
      found.push({ code: 'SR_PREVIEW_TAB_OVER_TEXT', tab: t.tab, message: `${where(t)} covers the text "${text}"` });
  }
  return found;
}
