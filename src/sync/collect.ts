import type { AccountClient, CallOptions } from '../client/esignature-client.js';
import type { FileRecord, OutputFolder } from '../output/output-folder.js';
import { documentFile, itemFile } from '../output/output-paths.js';
import { formDataOf } from './form-data.js';
import type { FormDataJson } from '../output/records.js';
import { announcedBytesOf, type EnvelopeDocument, type EnvelopeRecipients } from '../envelope/wire.js';
import { matchArchive } from './archive-files.js';

/** What to collect of a completed envelope. */
export interface CollectOptions {
  /** Also the combined PDF (every document and the certificate in one file). Default false. */
  combined?: boolean;
  /**
   * The envelope's documents (ids, names, sizes) as the status listing gave
   * them (`include=documents`): with them, the archive is the only download
   * call. Default: one listing of the envelope's documents first (an
   * envelope this sync's listing did not show: a Connect event, files to
   * collect again).
   */
  documents?: readonly EnvelopeDocument[];
  tag?: string;
  signal?: AbortSignal;
  /** The clock that dates form-data.json. */
  now?: () => Date;
  /**
   * The envelope's form data as `signrun listen` kept it from a Connect
   * message that carried the recipients' tabs (connect-form-data.ts): with
   * it, form-data.json is written from it (dated now, as a read would be)
   * and the recipients are not asked for. Default: one read of the
   * recipients with their tabs.
   */
  formData?: FormDataJson;
  /**
   * The envelope's recipients with their tabs as the status listing gave them
   * (`include=recipients,tabs`): with them, form-data.json is written from
   * them and the recipients are not asked for. Default: one read.
   */
  recipients?: EnvelopeRecipients;
}

/**
 * Downloads a completed envelope's documents as the service serves them
 * (signed and sealed) and its certificate of completion into
 * `<folder>/documents/<documentId>-<name>.pdf` and `<folder>/certificate.pdf`
 * — the same paths as a run's downloads, which they replace — in one call,
 * the envelope's archive (`documents/archive`, a ZIP), matched to the
 * documents' ids by their names (archive-files.ts), which the status
 * listing gave (else one listing of the envelope's documents); and what its recipients
 * entered into `<folder>/form-data.json` (from the listing's recipients with
 * their tabs, `options.recipients`, or what Connect brought,
 * `options.formData`; else one more call: the recipients with their tabs). Each file is written whole with its
 * sha256 (OutputFolder: temp file, then rename), so a crash leaves the
 * earlier file or the new one, never half of one; the archive is checked
 * whole before any file is written (client/archive-entries.ts). An archive
 * whose names do not say which file is which document is not guessed at:
 * the envelope's documents listing is asked, and if its names do not match
 * either, each document and the certificate are downloaded on their own. The
 * caller records the files in the journal: they are downloaded once.
 */
export async function collectCompleted(
  account: AccountClient,
  out: OutputFolder,
  folder: string,
  envelopeId: string,
  options: CollectOptions = {},
): Promise<FileRecord[]> {
  const call: CallOptions = {
    ...(options.tag ? { tag: options.tag } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const listDocuments = async () =>
    contentDocuments((await account.listDocuments(envelopeId, call)).envelopeDocuments ?? []);
  let documents = options.documents ? contentDocuments(options.documents) : await listDocuments();
  // The archive's cap follows the documents' announced sizes when every one is known.
  const sizes = documents.map((d) => announcedBytesOf(d));
  const announcedBytes = sizes.includes(undefined) ? undefined : sizes.reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const entries = await account.downloadArchive(envelopeId, {
    ...call,
    ...(announcedBytes !== undefined ? { announcedBytes } : {}),
  });
  let archive = matchArchive(entries, documents);
  // The status listing's documents did not account for the archive's files: the envelope's own
  // documents listing is the authority (one call), then, if still unmatched, one download each.
  if (!archive && options.documents) {
    documents = await listDocuments();
    archive = matchArchive(entries, documents);
  }
  const files = archive
    ? await Promise.all([
        ...archive.documents.map(({ document, bytes }) =>
          out.writeFile(documentFile(folder, document.documentId, nameOf(document)), bytes),
        ),
        out.writeFile(itemFile(folder, 'certificate'), archive.certificate),
      ])
    : await downloadEach(account, out, folder, envelopeId, documents, call);
  const readAt = (options.now ?? (() => new Date()))().toISOString();
  // What Connect brought, or the listing's recipients with their tabs, is what the read would give
  // (the same formDataOf over the same recipients), so no read.
  const formData = options.formData
    ? { ...options.formData, readAt }
    : formDataOf(
        envelopeId,
        'completed',
        readAt,
        options.recipients ?? (await account.listRecipients(envelopeId, { ...call, includeTabs: true })),
      );
  files.push(await out.writeJson(itemFile(folder, 'formData'), formData));
  if (options.combined) {
    files.push(
      await account.downloadCombined(envelopeId, (body) => out.writeStream(itemFile(folder, 'combined'), body), call),
    );
  }
  return files;
}

/** The content documents of a listing: not the certificate DocuSign lists among them. */
export function contentDocuments(listed: readonly EnvelopeDocument[]): EnvelopeDocument[] {
  return listed.filter((d) => d.documentId !== 'certificate' && d.type !== 'summary');
}

function nameOf(document: EnvelopeDocument): string {
  return document.name ?? `document-${document.documentId}`;
}

/** Each document and the certificate, one download each, streamed to disk (the way before archives). */
async function downloadEach(
  account: AccountClient,
  out: OutputFolder,
  folder: string,
  envelopeId: string,
  documents: readonly EnvelopeDocument[],
  call: CallOptions,
): Promise<FileRecord[]> {
  const files = await Promise.all(
    documents.map((doc) => {
      const announcedBytes = announcedBytesOf(doc);
      return account.downloadDocument(
        envelopeId,
        doc.documentId,
        (body) => out.writeStream(documentFile(folder, doc.documentId, nameOf(doc)), body),
        { ...call, ...(announcedBytes !== undefined ? { announcedBytes } : {}) },
      );
    }),
  );
  files.push(
    await account.downloadCertificate(
      envelopeId,
      (body) => out.writeStream(itemFile(folder, 'certificate'), body),
      call,
    ),
  );
  return files;
}
