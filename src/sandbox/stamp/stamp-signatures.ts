import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';

/**
 * One signature to draw. Positions follow DocuSign's tabs (Swagger
 * `signHere.xPosition` / `yPosition`): points from the TOP-left corner of the
 * page, y growing downwards. pageNumber is 1-based.
 */
export interface SignatureStamp {
  pageNumber: number;
  xPosition: number;
  yPosition: number;
  /** The adopted signature (typed name). */
  name: string;
  /** When the signer confirmed. */
  signedAt: Date;
  /** Small caption above the name. Default "Signed by signrun sandbox". */
  caption?: string;
}

/** Size of the stamped box, points. Exported so the signing page draws the same box. */
export const stampSize = { width: 180, height: 48 } as const;

/** Thrown when a stamp points at a page the document does not have. */
export class StampPageError extends Error {
  constructor(
    readonly pageNumber: number,
    readonly pageCount: number,
  ) {
    super(`page ${pageNumber} does not exist (the document has ${pageCount})`);
    this.name = 'StampPageError';
  }
}

/**
 * Draws each signature into the PDF and returns the new file. The name is set
 * in a cursive-looking standard font (Times bold italic: no font file to ship)
 * inside a thin box, with the UTC time beneath, as real text so that
 * `pdftotext` and screen readers find it. A box that would run off the page is
 * pulled back inside it.
 */
export async function stampSignatures(pdf: Uint8Array, stamps: readonly SignatureStamp[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const script = await doc.embedFont(StandardFonts.TimesRomanBoldItalic);
  const plain = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  for (const stamp of stamps) {
    const page = pages[stamp.pageNumber - 1];
    if (page === undefined) throw new StampPageError(stamp.pageNumber, pages.length);
    const { width: pageWidth, height: pageHeight } = page.getSize();
    const w = stampSize.width;
    const h = stampSize.height;
    // Top-left origin, y down (DocuSign) → bottom-left origin, y up (PDF):
    // the box's top edge sits at yPosition, so its bottom is height - y - h.
    const left = clamp(stamp.xPosition, 0, Math.max(0, pageWidth - w));
    const bottom = clamp(pageHeight - stamp.yPosition - h, 0, Math.max(0, pageHeight - h));
    const ink = rgb(0.05, 0.15, 0.45);
    page.drawRectangle({
      x: left,
      y: bottom,
      width: w,
      height: h,
      borderColor: ink,
      borderWidth: 0.8,
      opacity: 0,
      borderOpacity: 1,
    });
    const caption = encodable(plain, stamp.caption ?? 'Signed by signrun sandbox');
    page.drawText(caption, { x: left + 4, y: bottom + h - 9, size: 6, font: plain, color: ink });
    const name = encodable(script, stamp.name);
    const nameSize = fitSize(script, name, w - 8, 16);
    page.drawText(name, { x: left + 4, y: bottom + 17, size: nameSize, font: script, color: ink });
    const when = `${stamp.signedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
    page.drawText(when, { x: left + 4, y: bottom + 5, size: 6, font: plain, color: ink });
  }
  return doc.save();
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function fitSize(font: PDFFont, text: string, maxWidth: number, preferred: number): number {
  const width = font.widthOfTextAtSize(text, preferred);
  return width <= maxWidth ? preferred : Math.max(6, (preferred * maxWidth) / width);
}

/**
 * Standard fonts only encode WinAnsi (Latin-1 and a few more): "Français"
 * stays as is, but a character outside it is replaced by its base letter when
 * it has one (Ł → L is not decomposable: it becomes "?"), never dropped
 * silently and never an exception that would stop a signature.
 */
export function encodable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text) {
    if (canEncode(font, ch)) out += ch;
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== ch && [...base].every((c) => canEncode(font, c)) ? base : '?';
    }
  }
  return out;
}

function canEncode(font: PDFFont, ch: string): boolean {
  try {
    font.encodeText(ch);
    return true;
  } catch {
    return false;
  }
}
