import { PDFDocument } from 'pdf-lib';

/** Concatenates PDFs (documents, then the certificate) into one, for `documents/combined`. */
export async function combinePdfs(parts: Buffer[]): Promise<Buffer> {
  const out = await PDFDocument.create();
  out.setProducer('signrun sandbox');
  for (const bytes of parts) {
    const src = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    const pages = await out.copyPages(src, src.getPageIndices());
    for (const page of pages) out.addPage(page);
  }
  return Buffer.from(await out.save());
}

/** The exact page count (pdf-lib parse), for documents whose quick count was unknown. */
export async function exactPageCount(bytes: Buffer): Promise<number> {
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  return doc.getPageCount();
}
