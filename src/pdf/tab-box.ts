import { tabKind, type TabKindName } from '../envelope/index.js';

/** Width and height of a tab, in points. */
export interface TabSize {
  readonly width: number;
  readonly height: number;
}

/**
 * Where a tab is drawn on its page, in points: `left`/`top` from the page's
 * top-left corner, y down (DocuSign's units), and `bottom` from the page's
 * bottom edge, y up (PDF's), for the drawers. Always inside the page when
 * the tab fits on it.
 */
export interface TabBox extends TabSize {
  readonly left: number;
  readonly top: number;
  readonly bottom: number;
}

/**
 * The size a tab is drawn at: its own `width`/`height` when it gives them (a
 * positive number), else DocuSign's default for its kind (the catalogue's
 * `defaultSize`: a signature is 180 × 48).
 */
export function tabSize(kind: TabKindName, given: { width?: number; height?: number } = {}): TabSize {
  const fallback = tabKind(kind).defaultSize;
  const usable = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v) && v > 0;
  return {
    width: usable(given.width) ? given.width : fallback.width,
    height: usable(given.height) ? given.height : fallback.height,
  };
}

/**
 * The box of a tab whose top-left corner is at (xPosition, yPosition) on a
 * page of `page` size (points, top-left origin, y down). A box that would run
 * off the page is pulled back inside it, as the sandbox's stamp always did:
 * the arithmetic is the stamp's own, so stamped PDFs stay byte-identical.
 */
export function tabBox(place: { xPosition: number; yPosition: number }, size: TabSize, page: TabSize): TabBox {
  const { width, height } = size;
  const left = clamp(place.xPosition, 0, Math.max(0, page.width - width));
  // Top-left origin, y down (DocuSign) → bottom-left origin, y up (PDF):
  // the box's top edge sits at yPosition, so its bottom is height - y - h.
  const bottom = clamp(page.height - place.yPosition - height, 0, Math.max(0, page.height - height));
  return { left, top: page.height - bottom - height, bottom, width, height };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
