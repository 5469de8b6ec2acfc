import type { ArchiveEntry } from '../client/archive-entries.js';
import { archiveEntryNames, type EnvelopeDocument } from '../envelope/index.js';

/** An archive's files matched to what they are: each listed document, and the certificate. */
export interface MatchedArchive {
  documents: Array<{ document: EnvelopeDocument; bytes: Uint8Array }>;
  certificate: Uint8Array;
}

/**
 * Which file of an envelope's archive is which document: the ZIP names its
 * files and carries no documentId (src/envelope/archive-names.ts), so each
 * document the listing gave (in the envelope's order) is found under the
 * name DocuSign's rule gives it (case aside, folders aside), and the
 * certificate under `Summary.pdf` — or, when it goes by another name, as
 * the one file no document took. Anything less certain (a document not
 * found, two files of one name, a file more than the documents and the
 * certificate) gives undefined: the caller then asks the documents listing
 * and, failing that, downloads each document on its own, so no file is ever
 * stored under another document's name, nor one left out.
 */
export function matchArchive(
  entries: readonly ArchiveEntry[],
  documents: readonly EnvelopeDocument[],
): MatchedArchive | undefined {
  const key = (name: string) => (name.split('/').pop() ?? name).toLowerCase();
  const byName = new Map(entries.map((e) => [key(e.name), e]));
  if (byName.size !== entries.length) return undefined;
  const expected = archiveEntryNames(documents.map((d) => d.name ?? `document-${d.documentId}`));
  const taken = new Set<ArchiveEntry>();
  const matched: MatchedArchive['documents'] = [];
  for (const [i, document] of documents.entries()) {
    const entry = byName.get(key(expected.documents[i]!));
    if (!entry) return undefined;
    taken.add(entry);
    matched.push({ document, bytes: entry.bytes });
  }
  // Exactly the documents and the certificate: a file more is a document this list does not know.
  const left = entries.filter((e) => !taken.has(e));
  if (left.length !== 1) return undefined;
  const certificate = byName.get(key(expected.certificate)) ?? left[0]!;
  if (certificate !== left[0]) return undefined;
  return { documents: matched, certificate: certificate.bytes };
}
