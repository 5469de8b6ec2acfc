import { PDFDocument, StandardFonts, type PDFPage } from 'pdf-lib';
import { wrapLines } from './line-wrap.js';
import { RenditionError } from './rendition-error.js';
import type { TextBlock } from './text-blocks.js';

/** US Letter, in points: DocuSign's default page for converted documents. */
const PAGE: [number, number] = [612, 792];
/** One inch on every side. */
const MARGIN = 72;
const BODY_SIZE = 11;
/** Font size of h1 … h6. */
const HEADING_SIZES = [20, 16, 14, 12, 11, 11] as const;
const LEADING = 1.3;
/** How far a list item's text stands in from its bullet. */
const ITEM_INDENT = 18;
/**
 * The rendition's Info dates and producer are fixed: the same document gives
 * the same bytes (what the sandbox stores is addressed by its sha256, and
 * tests compare renditions byte for byte).
 */
const FIXED_DATE = new Date(Date.UTC(2000, 0, 1));

/** What the layout stops at. */
export interface LayoutLimits {
  readonly pages: number;
  /** Checked at every line, from `started` (a value of `now`). */
  readonly milliseconds: number;
  readonly started: number;
  /** The clock (Date.now). */
  readonly now: () => number;
}

/**
 * Lays out blocks on US Letter pages with 72 pt margins in Helvetica:
 * headings bold and larger, paragraphs and list items (with a bullet)
 * word-wrapped, a new page when one is full. One line is drawn as one text
 * run, so readPageText reads it back as one line and anchors are found in
 * it. Characters Helvetica cannot encode become their base letter or `?`
 * (encodable). An empty document is one blank page.
 */
export async function layoutBlocks(blocks: readonly TextBlock[], limits: LayoutLimits): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setProducer('signrun');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const bottom = PAGE[1] - MARGIN;
  let page: PDFPage = doc.addPage(PAGE);
  /** Distance from the page's top to the top of the next line. */
  let y = MARGIN;
  const newPage = () => {
    if (doc.getPageCount() >= limits.pages)
      throw new RenditionError(`The document makes more than ${limits.pages} pages.`, 'pages');
    page = doc.addPage(PAGE);
    y = MARGIN;
  };

  // Checked at every line, not between blocks: one block (a 5 MB word) may be the whole document.
  const inTime = () => {
    if (limits.now() - limits.started > limits.milliseconds)
      throw new RenditionError(
        `Converting the document took more than ${limits.milliseconds / 1000} s.`,
        'milliseconds',
      );
  };

  for (const block of blocks) {
    inTime();
    const heading = block.kind === 'heading';
    const size = heading ? HEADING_SIZES[block.level - 1]! : BODY_SIZE;
    const font = heading ? bold : regular;
    const lineHeight = size * LEADING;
    const indent = block.kind === 'item' ? ITEM_INDENT : 0;
    // A heading keeps some space above it, except at the top of a page.
    if (heading && y > MARGIN) y += size * 0.6;
    let first = true;
    for (const line of wrapLines(block.text, font, size, PAGE[0] - 2 * MARGIN - indent)) {
      inTime();
      if (y + lineHeight > bottom) newPage();
      const baseline = PAGE[1] - (y + size);
      if (first && block.kind === 'item') page.drawText('\u2022', { x: MARGIN + 4, y: baseline, size, font });
      page.drawText(line, { x: MARGIN + indent, y: baseline, size, font });
      y += lineHeight;
      first = false;
    }
    y += heading ? size * 0.4 : size * 0.6;
  }
  return doc.save({ useObjectStreams: false });
}
