import { PDFDocument, StandardFonts } from 'pdf-lib';
import { tabKind, type TabKindName } from '../envelope/index.js';
import { tabBox, tabSize } from './tab-box.js';
import { tabDrawers, type TabContent } from './tab-drawers.js';

/**
 * One tab to draw. Positions follow DocuSign's tabs (Swagger `xPosition` /
 * `yPosition`): points from the TOP-left corner of the page, y growing
 * downwards; pageNumber is 1-based. Without `width`/`height` the kind's
 * default size is used.
 */
export interface TabToDraw extends TabContent {
  readonly kind: TabKindName;
  readonly pageNumber: number;
  readonly xPosition: number;
  readonly yPosition: number;
  readonly width?: number;
  readonly height?: number;
}

/** Thrown when a tab points at a page the document does not have. */
export class TabPageError extends Error {
  constructor(
    readonly pageNumber: number,
    readonly pageCount: number,
  ) {
    super(`page ${pageNumber} does not exist (the document has ${pageCount})`);
    this.name = 'TabPageError';
  }
}

/**
 * Draws each tab into the PDF, in order, with its kind's drawer, and returns
 * the new file (the original's bytes are kept: earlier signatures stay). A
 * box that would run off its page is pulled back inside it. Throws
 * TabPageError for a page the document lacks.
 */
export async function drawTabs(pdf: Uint8Array, tabs: readonly TabToDraw[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  // Both fonts, in this order, whatever is drawn: the stamp's bytes depend on it.
  const fonts = {
    script: await doc.embedFont(StandardFonts.TimesRomanBoldItalic),
    plain: await doc.embedFont(StandardFonts.Helvetica),
  };
  const pages = doc.getPages();
  for (const tab of tabs) {
    const page = pages[tab.pageNumber - 1];
    if (page === undefined) throw new TabPageError(tab.pageNumber, pages.length);
    const box = tabBox(tab, tabSize(tab.kind, tab), page.getSize());
    tabDrawers[tabKind(tab.kind).drawing](page, box, tab, fonts);
  }
  return doc.save();
}
