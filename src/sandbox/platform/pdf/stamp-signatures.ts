import { drawTabs, TabPageError, type TabToDraw } from '../../../pdf/index.js';

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

/** Thrown when a stamp points at a page the document does not have (the PDF layer's error). */
export { TabPageError as StampPageError };

/**
 * Draws each signature into the PDF as a sign-here tab of the kind's default
 * size (the PDF layer's signature drawer: the name in a cursive-looking
 * standard font inside a thin box, the UTC time beneath, as real text) and
 * returns the new file. A box that would run off the page is pulled back
 * inside it. `others` (the recipient's tabs of other kinds, with their final
 * values) are drawn after the signatures, in the same pass; without them the
 * bytes are those the sandbox has always stamped.
 */
export async function stampSignatures(
  pdf: Uint8Array,
  stamps: readonly SignatureStamp[],
  others: readonly TabToDraw[] = [],
): Promise<Uint8Array> {
  return drawTabs(pdf, [
    ...stamps.map((s): TabToDraw => ({
      kind: 'signHere',
      pageNumber: s.pageNumber,
      xPosition: s.xPosition,
      yPosition: s.yPosition,
      value: s.name,
      signedAt: s.signedAt,
      ...(s.caption === undefined ? {} : { caption: s.caption }),
    })),
    ...others,
  ]);
}
