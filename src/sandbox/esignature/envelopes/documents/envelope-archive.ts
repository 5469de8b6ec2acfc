import { zipSync, type Zippable } from 'fflate';
import { archiveEntryNames } from '../../../../envelope/archive-names.js';

/** A document of the envelope as it stands: its name and its current bytes (a PDF). */
export interface ArchivedDocument {
  name: string;
  bytes: Buffer;
}

/**
 * `documents/archive` (Swagger Documents_GetDocument: "a ZIP archive that
 * contains all of the PDF documents and the Certificate of Completion"):
 * one entry per document in the envelope's order, then the certificate,
 * named by DocuSign's rule (src/envelope/archive-names.ts: the document's
 * name, `[n]` for a repeat, `Summary.pdf` for the certificate), at the root
 * of the ZIP with no manifest, as DocuSign's. Deflated (fflate): the
 * sandbox's PDFs keep their streams uncompressed, so the ZIP is smaller
 * than its parts, as DocuSign's is.
 */
export function envelopeArchive(documents: readonly ArchivedDocument[], certificate: Buffer): Buffer {
  const names = archiveEntryNames(documents.map((d) => d.name));
  const entries: Zippable = {};
  documents.forEach((d, i) => {
    entries[names.documents[i]!] = d.bytes;
  });
  entries[names.certificate] = certificate;
  return Buffer.from(zipSync(entries, { level: 6 }));
}
