import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { archiveEntryNames } from '../../../../envelope/archive-names.js';
import type { ArchivedDocument } from './envelope-archive.js';

/**
 * `documents/portfolio`: DocuSign's "envelope documents as a PDF
 * portfolio" (Adobe's name for one PDF that carries other files, with a
 * `/Collection` in its catalogue, ISO 32000-1 12.3.5). Here: a cover page
 * and every document and the certificate attached as embedded files, named
 * as in the archive. Readers that know portfolios show the files; others
 * show the cover page, which says what is inside.
 */
export async function pdfPortfolio(documents: readonly ArchivedDocument[], certificate: Buffer): Promise<Buffer> {
  const names = archiveEntryNames(documents.map((d) => d.name));
  const out = await PDFDocument.create();
  out.setProducer('signrun sandbox');
  const font = await out.embedFont(StandardFonts.Helvetica);
  const page = out.addPage();
  page.drawText(
    `PDF portfolio: ${documents.length} document${documents.length === 1 ? '' : 's'} and the certificate of completion.`,
    { x: 50, y: page.getHeight() - 72, size: 12, font },
  );
  const files = [
    ...documents.map((d, i) => ({ name: names.documents[i]!, bytes: d.bytes })),
    { name: names.certificate, bytes: certificate },
  ];
  for (const file of files) await out.attach(file.bytes, file.name, { mimeType: 'application/pdf' });
  // `/View /D`: the files shown as details (a list), the cover page aside.
  out.catalog.set(PDFName.of('Collection'), out.context.obj({ Type: 'Collection', View: 'D' }));
  return Buffer.from(await out.save());
}
