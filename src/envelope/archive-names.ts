/**
 * The names of the files inside DocuSign's envelope archive (GET
 * …/envelopes/{envelopeId}/documents/archive, Swagger Documents_GetDocument:
 * "a ZIP archive that contains all of the PDF documents and the Certificate
 * of Completion"). The Swagger does not name the entries, and the ZIP carries
 * no documentId nor any manifest (docusign/docusign-esign-ruby-client#117).
 * What DocuSign is seen to do (docusign/docusign-esign-java-client#267): one
 * entry per document, named by the document's name, in the envelope's
 * order, a name met again suffixed `[1]`, `[2]`… before its extension
 * (`Filename.pdf`, `Filename[1].pdf`); the certificate is the document
 * DocuSign's documents listing calls `Summary` (its download is
 * `Summary.pdf`). The sandbox writes its archives by this rule and `sync`
 * reads them by it, matching each entry to the documentId a listing gave:
 * one place, so the two cannot drift apart. A reader must not trust more than
 * the rule: when an archive's names do not match it, sync downloads each
 * document instead (src/sync/archive-files.ts).
 */

/** The certificate's entry before de-duplication: the name DocuSign gives the certificate (`Summary`). */
export const archiveCertificateName = 'Summary.pdf';

/** Where the names of one archive's entries go. */
export interface ArchiveNames {
  /** One per document, in the order given. */
  documents: string[];
  certificate: string;
}

/**
 * The entry names of an archive of documents named `documentNames` (in
 * the envelope's order) and the certificate: each a PDF (`.pdf` added when
 * the name lacks it: DocuSign serves every document as a PDF), characters no
 * file system takes replaced by `_`, repeats suffixed `[n]`.
 */
export function archiveEntryNames(documentNames: readonly string[]): ArchiveNames {
  const used = new Set<string>();
  const unique = (name: string): string => {
    const dot = name.toLowerCase().lastIndexOf('.pdf');
    const stem = name.slice(0, dot);
    let candidate = name;
    for (let n = 1; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem}[${n}].pdf`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
  const documents = documentNames.map((name) => unique(pdfEntryName(name)));
  return { documents, certificate: unique(archiveCertificateName) };
}

/** A document's name as an entry: no path separators nor characters a file system refuses, ending in `.pdf`. */
function pdfEntryName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || 'document';
  return /\.pdf$/i.test(cleaned) ? cleaned : `${cleaned}.pdf`;
}
