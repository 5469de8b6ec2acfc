import { rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import type { TabDrawing } from '../envelope/index.js';
import { encodable } from './encodable.js';
import type { TabBox } from './tab-box.js';

/** What a drawer may show of a tab besides its box. */
export interface TabContent {
  /** The value shown: the adopted signature or initials, a text tab's value, a list's chosen text. */
  readonly value?: string;
  /** A checkbox's or a radio's state. */
  readonly selected?: boolean;
  /** When a signature or initials were adopted (shown beneath, in UTC). */
  readonly signedAt?: Date;
  /** A signature's small caption above the name. Default "Signed by signrun sandbox". */
  readonly caption?: string;
  /** Shown by a labelled box (list, radio, button, attachment) when there is no value: the tab's label or kind. */
  readonly label?: string;
  /** Ink, red/green/blue from 0 to 1 (the preview gives each recipient its colour). Default the sandbox's dark blue. */
  readonly ink?: { readonly red: number; readonly green: number; readonly blue: number };
}

/** The fonts every drawer uses, embedded once per document (standard fonts: nothing to ship). */
export interface DrawFonts {
  /** Times bold italic: a cursive-looking hand for signatures and initials. */
  readonly script: PDFFont;
  /** Helvetica: captions, values, labels. */
  readonly plain: PDFFont;
}

/** Draws one tab into its box on a page. */
export type TabDrawer = (page: PDFPage, box: TabBox, content: TabContent, fonts: DrawFonts) => void;

/** The ink the sandbox has always stamped with. */
const defaultInk = rgb(0.05, 0.15, 0.45);

function inkOf(content: TabContent): RGB {
  return content.ink === undefined ? defaultInk : rgb(content.ink.red, content.ink.green, content.ink.blue);
}

function frame(page: PDFPage, box: TabBox, ink: RGB): void {
  page.drawRectangle({
    x: box.left,
    y: box.bottom,
    width: box.width,
    height: box.height,
    borderColor: ink,
    borderWidth: 0.8,
    opacity: 0,
    borderOpacity: 1,
  });
}

/** The largest size up to `preferred` at which `text` fits in `maxWidth` (never below 6 pt, the smallest legible). */
export function fitSize(font: PDFFont, text: string, maxWidth: number, preferred: number): number {
  const width = font.widthOfTextAtSize(text, preferred);
  return width <= maxWidth ? preferred : Math.max(6, (preferred * maxWidth) / width);
}

function utc(when: Date): string {
  return `${when.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/**
 * A signature: the name set in the script font inside a thin box, a caption
 * above and the UTC time beneath, as real text so that `pdftotext` and screen
 * readers find it. This is the sandbox's stamp, unchanged to the byte.
 */
const signature: TabDrawer = (page, box, content, { script, plain }) => {
  const ink = inkOf(content);
  const { left, bottom, width: w, height: h } = box;
  frame(page, box, ink);
  const caption = encodable(plain, content.caption ?? 'Signed by signrun sandbox');
  page.drawText(caption, { x: left + 4, y: bottom + h - 9, size: 6, font: plain, color: ink });
  const name = encodable(script, content.value ?? '');
  const nameSize = fitSize(script, name, w - 8, 16);
  page.drawText(name, { x: left + 4, y: bottom + 17, size: nameSize, font: script, color: ink });
  if (content.signedAt !== undefined)
    page.drawText(utc(content.signedAt), { x: left + 4, y: bottom + 5, size: 6, font: plain, color: ink });
};

/** Initials: like a signature, smaller (no caption; the time beneath when there is room). */
const initials: TabDrawer = (page, box, content, { script, plain }) => {
  const ink = inkOf(content);
  const { left, bottom, width: w, height: h } = box;
  frame(page, box, ink);
  // The date beneath when there is room for it.
  const when = h >= 24 ? content.signedAt : undefined;
  const withTime = when !== undefined;
  const text = encodable(script, content.value ?? '');
  const size = fitSize(script, text, w - 6, Math.min(14, h - (withTime ? 14 : 6)));
  page.drawText(text, {
    x: left + 3,
    y: bottom + (withTime ? 11 : (h - size) / 2 + 1),
    size,
    font: script,
    color: ink,
  });
  if (when !== undefined)
    page.drawText(utc(when).slice(0, 10), {
      x: left + 3,
      y: bottom + 3,
      size: 5,
      font: plain,
      color: ink,
    });
};

/** How a value is set in a box's one line of text: the size it is wanted at, the room, and the size it gets. */
export interface TextLineFit {
  /** The text as drawn (characters the font cannot encode replaced). */
  readonly shown: string;
  /** The size the stamp writes a value at in a box of this height (10 pt at most, 6 at least). */
  readonly preferredSize: number;
  /** The width the text may take (the box less its margins), points. */
  readonly room: number;
  /** The text's width at the preferred size, points. */
  readonly width: number;
  /** The size it is drawn at: the preferred one, or smaller so it fits (never below 6 pt). */
  readonly size: number;
}

/**
 * How `text` is set in `box` by the text, list and labelled drawers: the
 * stamp's own arithmetic, exported so that the preview measures a value
 * exactly as it will be stamped (a value wider than `room` is shrunk).
 */
export function textLineFit(box: TabBox, text: string, font: PDFFont, left = box.left + 3): TextLineFit {
  const shown = encodable(font, text);
  const room = box.left + box.width - 3 - left;
  const preferredSize = Math.min(10, Math.max(6, box.height - 6));
  return {
    shown,
    preferredSize,
    room,
    width: font.widthOfTextAtSize(shown, preferredSize),
    size: fitSize(font, shown, room, preferredSize),
  };
}

/** One line of text, vertically centred in the box, shrunk to fit its width. */
function textLine(page: PDFPage, box: TabBox, text: string, font: PDFFont, ink: RGB, left = box.left + 3): void {
  const { shown, size } = textLineFit(box, text, font, left);
  // Helvetica's capitals stand 0.72 em above the baseline: centre those.
  const y = box.bottom + (box.height - size * 0.72) / 2;
  page.drawText(shown, { x: left, y, size, font, color: ink });
}

/** A text field (text, number, date, the service's values …): its value in the box. */
const text: TabDrawer = (page, box, content, { plain }) => {
  const ink = inkOf(content);
  frame(page, box, ink);
  if (content.value !== undefined && content.value !== '') textLine(page, box, content.value, plain, ink);
};

/** A checkbox: a square, with an X across it when selected. */
const checkbox: TabDrawer = (page, box, content, { plain }) => {
  const ink = inkOf(content);
  frame(page, box, ink);
  if (content.selected !== true) return;
  const size = Math.min(box.width, box.height) * 0.9;
  const x = box.left + (box.width - plain.widthOfTextAtSize('X', size)) / 2;
  page.drawText('X', { x, y: box.bottom + (box.height - size * 0.72) / 2, size, font: plain, color: ink });
};

/** A box with what the tab holds, or what it is: list, radio, button, attachment. */
function labelledBox(fallback: string): TabDrawer {
  return (page, box, content, { plain }) => {
    const ink = inkOf(content);
    frame(page, box, ink);
    const shown = content.value !== undefined && content.value !== '' ? content.value : (content.label ?? fallback);
    textLine(page, box, shown, plain, ink);
  };
}

/**
 * A radio: a small box like a checkbox (an X when it is the group's choice),
 * its value written just right of it (a radio's box is too small to hold it).
 */
const radio: TabDrawer = (page, box, content, fonts) => {
  checkbox(page, box, content, fonts);
  const label = content.value ?? content.label;
  if (label === undefined || label === '') return;
  const size = Math.min(10, Math.max(6, box.height - 2));
  const y = box.bottom + (box.height - size * 0.72) / 2;
  page.drawText(encodable(fonts.plain, label), {
    x: box.left + box.width + 3,
    y,
    size,
    font: fonts.plain,
    color: inkOf(content),
  });
};

/** One drawer per drawing style of the catalogue (src/envelope/tab-kinds.ts). */
export const tabDrawers: Readonly<Record<TabDrawing, TabDrawer>> = {
  signature,
  initials,
  text,
  checkbox,
  radio,
  list: labelledBox('List'),
  button: labelledBox('Button'),
  attachment: labelledBox('Attachment'),
};
