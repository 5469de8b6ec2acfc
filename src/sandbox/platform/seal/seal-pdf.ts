import { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import type { SandboxCa } from './sandbox-ca.js';
import { SandboxSigner } from './sandbox-signer.js';

/** What the seal says about itself (shown by PDF viewers and `pdfsig`). */
export interface SealOptions {
  /** Default "Sealed by the signrun sandbox on completion". */
  reason?: string;
  /** Default now. */
  signingTime?: Date;
  /** Default "signrun sandbox". */
  location?: string;
}

/** Seals PDFs with one CA's sealing certificate. */
export type PdfSealer = (pdf: Uint8Array, options?: SealOptions) => Promise<Buffer>;

/**
 * A PAdES-style detached CMS signature over the whole file (ISO 32000-1
 * 12.8, subFilter adbe.pkcs7.detached): any later change to a signed byte
 * makes the signature invalid. The signature is invisible (no widget on the
 * page): the visible marks are the stamps made when each signer signed.
 */
export function createPdfSealer(ca: SandboxCa): PdfSealer {
  const signer = new SandboxSigner(ca.p12, ca.passphrase);
  return async (pdf, options = {}) => {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: options.reason ?? 'Sealed by the signrun sandbox on completion',
      contactInfo: 'sandbox@signrun.test',
      name: 'signrun sandbox document sealing',
      location: options.location ?? 'signrun sandbox',
      signingTime: options.signingTime ?? new Date(),
      // The CMS holds two 2048-bit certificates; 8 KiB leaves ample room.
      signatureLength: 8192,
    });
    // Object streams hide the ByteRange placeholder from @signpdf's search.
    const withPlaceholder = await doc.save({ useObjectStreams: false });
    return new SignPdf().sign(Buffer.from(withPlaceholder), signer, options.signingTime);
  };
}
