import type { AccountClient } from '../client/esignature-client.js';
import type { FileRecord, OutputFolder } from '../output/output-folder.js';
import { documentFile, itemFile } from '../output/output-paths.js';
import { formDataOf } from './form-data.js';
import { announcedBytesOf } from '../envelope/wire.js';

/** What to collect of a completed envelope. */
export interface CollectOptions {
  /** Also the combined PDF (every document and the certificate in one file). Default false. */
  combined?: boolean;
  tag?: string;
  signal?: AbortSignal;
  /** The clock that dates form-data.json. */
  now?: () => Date;
}

/**
 * Downloads a completed envelope's documents as the service serves them
 * (signed and sealed) and its certificate of completion into
 * `<folder>/documents/` and `<folder>/certificate.pdf` — the same paths as
 * a run's downloads, which they replace — and what its recipients entered
 * into `<folder>/form-data.json` (one more call: recipients with their tabs). Each one is streamed to a temp file
 * with its sha256 computed on the way and renamed into place whole
 * (OutputFolder), so a crash leaves the earlier file or the new one, never
 * half of one. The caller records the files in the journal: they are
 * downloaded once.
 */
export async function collectCompleted(
  account: AccountClient,
  out: OutputFolder,
  folder: string,
  envelopeId: string,
  options: CollectOptions = {},
): Promise<FileRecord[]> {
  const call = { ...(options.tag ? { tag: options.tag } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  const listed = await account.listDocuments(envelopeId, call);
  const documents = (listed.envelopeDocuments ?? []).filter(
    (d) => d.documentId !== 'certificate' && d.type !== 'summary',
  );
  const files = await Promise.all(
    documents.map((doc) => {
      const relative = documentFile(folder, doc.documentId, doc.name ?? `document-${doc.documentId}`);
      const announcedBytes = announcedBytesOf(doc);
      return account.downloadDocument(envelopeId, doc.documentId, (body) => out.writeStream(relative, body), {
        ...call,
        ...(announcedBytes !== undefined ? { announcedBytes } : {}),
      });
    }),
  );
  files.push(
    await account.downloadCertificate(
      envelopeId,
      (body) => out.writeStream(itemFile(folder, 'certificate'), body),
      call,
    ),
  );
  const recipients = await account.listRecipients(envelopeId, { ...call, includeTabs: true });
  const readAt = (options.now ?? (() => new Date()))().toISOString();
  files.push(
    await out.writeJson(itemFile(folder, 'formData'), formDataOf(envelopeId, 'completed', readAt, recipients)),
  );
  if (options.combined) {
    files.push(
      await account.downloadCombined(envelopeId, (body) => out.writeStream(itemFile(folder, 'combined'), body), call),
    );
  }
  return files;
}
