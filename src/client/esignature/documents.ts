import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CallOptions, DownloadSink, WrittenFile } from '../call-options.js';
import type { EnvelopeDocumentsResult } from '../../envelope/wire.js';
import { downloadCap, type DownloadExpectation } from '../download-check.js';
import { readArchive, type ArchiveEntry } from '../archive-entries.js';
import { pathOf } from '../redact.js';
import { answerJson, type AccountScope } from './account-scope.js';
import { accountEndpointUrl as urlOf } from './endpoints.js';

/** GET …/envelopes/{envelopeId}/documents (4.8). */
export async function listDocuments(
  account: AccountScope,
  envelopeId: string,
  options: CallOptions = {},
): Promise<EnvelopeDocumentsResult> {
  const url = urlOf(account.baseUrl, 'listDocuments', { envelopeId });
  return answerJson<EnvelopeDocumentsResult>(
    account.client,
    { method: 'GET', url, operation: 'listDocuments' },
    options,
  );
}

/** GET …/envelopes/{envelopeId}/documents/{documentId} (4.9), streamed into `sink`. */
export async function downloadDocument<T extends WrittenFile>(
  account: AccountScope,
  envelopeId: string,
  documentId: string,
  sink: DownloadSink<T>,
  options: CallOptions & {
    /** `sizeBytes` of the documents listing, when known: the download's cap follows from it. */
    announcedBytes?: number;
  } = {},
): Promise<T> {
  const { announcedBytes, ...call } = options;
  return account.client.download(
    urlOf(account.baseUrl, 'downloadDocument', { envelopeId, documentId }),
    'downloadDocument',
    sink,
    { ...call, expect: { kind: 'pdf', ...(announcedBytes !== undefined ? { announcedBytes } : {}) } },
  );
}

/**
 * The certificate of completion (4.10): in v2 it is the pseudo-document
 * `certificate` of GET …/documents/{documentId} (Swagger Documents_GetDocument).
 */
export async function downloadCertificate<T extends WrittenFile>(
  account: AccountScope,
  envelopeId: string,
  sink: DownloadSink<T>,
  options: CallOptions = {},
): Promise<T> {
  const url = urlOf(account.baseUrl, 'downloadDocument', { envelopeId, documentId: 'certificate' });
  return account.client.download(url, 'downloadCertificate', sink, options);
}

/**
 * GET …/documents/archive (Documents_GetDocument's `archive` keyword):
 * every document and the certificate of completion in one ZIP, one call
 * instead of a listing, one per document and the certificate. Through the
 * one download path (a ZIP by its first bytes, capped by `announcedBytes`,
 * the sum of the documents' `sizeBytes` when known, restarted when the body
 * breaks off), held in memory (bounded by that cap) and read by
 * {@link readArchive}: only files that are whole, within the same budget
 * unpacked, and PDFs come back, named as the archive names them
 * (src/envelope/archive-names.ts). The ZIP itself is not kept.
 */
export async function downloadArchive(
  account: AccountScope,
  envelopeId: string,
  options: CallOptions & { announcedBytes?: number } = {},
): Promise<ArchiveEntry[]> {
  const { announcedBytes, ...call } = options;
  const expect: DownloadExpectation = { kind: 'zip', ...(announcedBytes !== undefined ? { announcedBytes } : {}) };
  const url = urlOf(account.baseUrl, 'downloadDocument', { envelopeId, documentId: 'archive' });
  const zip = await account.client.download(url, 'downloadArchive', bufferSink, { ...call, expect });
  return readArchive(zip.bytes, `downloadArchive GET ${pathOf(url)}`, { unpackedBytes: downloadCap(expect) });
}

/** GET …/documents/combined: every document and the certificate in one PDF, streamed into `sink`. */
export async function downloadCombined<T extends WrittenFile>(
  account: AccountScope,
  envelopeId: string,
  sink: DownloadSink<T>,
  options: CallOptions = {},
): Promise<T> {
  const url = urlOf(account.baseUrl, 'downloadDocument', { envelopeId, documentId: 'combined' });
  return account.client.download(url, 'downloadCombined', sink, options);
}

/** A sink that keeps the body in memory (the caller's cap bounds it), with its size and sha256. */
async function bufferSink(body: Readable): Promise<WrittenFile & { bytes: Buffer }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    chunks.push(bytes);
  }
  const bytes = Buffer.concat(chunks);
  return { bytes, size: bytes.length, sha256: hash.digest('hex') };
}

/**
 * The page count of a document of a listing: v2 writes `pages` as a string
 * ("2"), v2.1 as a list of page objects.
 */
export function pageCountOf(document: { pages?: string | unknown[] }): number | undefined {
  const pages = document.pages;
  if (Array.isArray(pages)) return pages.length;
  if (typeof pages === 'string' && /^\d+$/.test(pages)) return Number(pages);
  return undefined;
}
