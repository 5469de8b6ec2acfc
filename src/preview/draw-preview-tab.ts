import { rgb, type PDFPage } from 'pdf-lib';
import { tabKind } from '../envelope/index.js';
import { tabDrawers, textLineFit, type DrawFonts, type TabBox, type TextLineFit } from '../pdf/index.js';
import type { RecipientColour } from './recipient-colours.js';
import type { PreviewTab } from './preview-tabs.js';

/**
 * Draws one tab of the preview on its page: a pale wash of its recipient's
 * colour, then — a value given before sending — the stamp's own drawer for
 * its kind, in that colour (the value where, and in the font and size, it
 * will be stamped); or the kind's name, small, for a tab the signer fills.
 * Returns how a value was set in the box (text and list drawings), for the
 * overflow warning.
 */
export function drawPreviewTab(
  page: PDFPage,
  box: TabBox,
  tab: PreviewTab,
  colour: RecipientColour,
  fonts: DrawFonts,
): TextLineFit | undefined {
  const ink = rgb(colour.red, colour.green, colour.blue);
  page.drawRectangle({ x: box.left, y: box.bottom, width: box.width, height: box.height, color: ink, opacity: 0.12 });
  const drawing = tabKind(tab.kind).drawing;
  if (tab.prefilled || drawing === 'checkbox' || drawing === 'radio') {
    tabDrawers[drawing](page, box, { ...tab.content, ink: colour }, fonts);
    const value = tab.content.value;
    return (drawing === 'text' || drawing === 'list') && value !== undefined && value !== ''
      ? textLineFit(box, value, fonts.plain)
      : undefined;
  }
  // For the signer to fill: the frame and what it is.
  page.drawRectangle({
    x: box.left,
    y: box.bottom,
    width: box.width,
    height: box.height,
    borderColor: ink,
    borderWidth: 0.8,
    borderDashArray: [3, 2],
    opacity: 0,
    borderOpacity: 1,
  });
  const label = tab.content.label ?? tab.kind;
  const size = Math.min(7, Math.max(4, box.height - 4));
  const shown = label.slice(0, Math.max(1, Math.floor((box.width - 4) / (size * 0.5))));
  page.drawText(shown, { x: box.left + 2, y: box.bottom + box.height - size - 1, size, font: fonts.plain, color: ink });
  return undefined;
}
