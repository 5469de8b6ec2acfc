import { tabsByKind, type DocGenFormField, type DocGenFormFields } from '../../../../envelope/index.js';
import { hasAnchor } from '../../../../pdf/index.js';
import type { MergeField } from '../../../../pdf/docx-merge-fields.js';
import { ApiError, apiErrors } from '../../../platform/http/api-error.js';
import type { BlobStore } from '../../../platform/db/blob-store.js';
import type { SandboxDatabase } from '../../../platform/db/open-database.js';
import { docGenFieldsProblem, type DocGenIntake } from '../documents/document-intake.js';
import type { DocumentWork } from '../../document-work/document-work.js';
import { quickPageCount } from '../../../platform/pdf/page-count.js';
import type { EnvelopeRecord, EnvelopesRepository } from '../repository.js';
import { EnvelopeText } from '../tabs/place-tabs.js';
import { docGenFieldOf } from '../wire/definition-parts.js';
import { lenientArray, lenientObject, lenientString } from '../../../platform/http/lenient.js';
import { docGenStore, type EnvelopeDocGenDocument } from './docgen-store.js';
import { replaceAnchoredTabs } from './replace-anchored-tabs.js';

/** What the DocGen routes and the send need of the sandbox. */
export interface DocGenDeps {
  db: SandboxDatabase;
  blobs: BlobStore;
  envelopes: EnvelopesRepository;
  /**
   * Where the letter is generated, the documents read for anchors and a
   * DOCX's merge fields listed: the pool, off the event loop.
   */
  documentWork: Pick<DocumentWork, 'convert' | 'readText' | 'mergeFields'>;
}

// DocuSign publishes no error code of its own for DocGen's form fields; the
// sandbox answers with its codes for the same faults: a draft asked of an
// envelope that is no longer one (ENVELOPE_INVALID_STATUS), a document that
// is not one of the envelope's DocGen documents (DOCUMENT_DOES_NOT_EXIST), a
// field without a value or a value for no field (INVALID_REQUEST_PARAMETER,
// naming the fields and the document).

/**
 * GET …/envelopes/{envelopeId}/docGenFormFields (DocuSign's
 * `DocGenFormFieldResponse`): each DocGen document with its GUID and its
 * merge fields, each required, with the value set if any; a table row's
 * columns as one row of its `rowValues` until rows are set. An envelope
 * without DocGen documents answers `{}`, as DocuSign does.
 */
export async function docGenFormFieldsJson(
  deps: DocGenDeps,
  envelope: EnvelopeRecord,
): Promise<{ docGenFormFields?: DocGenFormFields[] }> {
  const documents = docGenDocuments(deps, envelope.id);
  if (documents.length === 0) return {};
  return {
    docGenFormFields: await Promise.all(
      documents.map(async (d) => ({
        documentId: d.documentIdGuid,
        docGenDocumentStatus: d.generated ? 'generated' : 'created',
        docGenFormFieldList: (await mergeFieldsOf(deps, d)).map((f) => fieldJson(f, d.fields)),
      })),
    ),
  };
}

/** A DocGen document's merge fields, read from its DOCX (a client's bytes) on the pool. */
function mergeFieldsOf(deps: DocGenDeps, document: EnvelopeDocGenDocument): Promise<MergeField[]> {
  return deps.documentWork.mergeFields(deps.blobs.get(document.docxSha256));
}

function fieldJson(field: MergeField, values: readonly DocGenFormField[] | null): DocGenFormField {
  const set = values?.find((v) => v.name === field.name);
  const base = { name: field.name, label: field.name, required: 'true' };
  if (field.kind === 'tableRow')
    return {
      ...base,
      type: 'TableRow',
      rowValues: set?.rowValues ?? [
        { docGenFormFieldList: field.columns.map((c) => ({ name: c, label: c, type: 'TextBox', required: 'true' })) },
      ],
    };
  return {
    ...base,
    type: set?.type ?? 'TextBox',
    ...(set?.format ? { format: set.format } : {}),
    ...(set?.value !== undefined ? { value: set.value } : {}),
  };
}

/**
 * PUT …/envelopes/{envelopeId}/docGenFormFields (DocuSign's
 * `DocGenFormFieldRequest`): on a draft only, the values of each DocGen
 * document named by its GUID (or its documentId), every merge field given a
 * value and no value for a field the document lacks. The letter is generated
 * now and gets a new GUID, as DocuSign says the documentId changes; with
 * `update_docgen_formfields_only=true` only the values are kept and the
 * letter is generated when the envelope is sent.
 */
export async function updateDocGenFormFields(
  deps: DocGenDeps,
  envelope: EnvelopeRecord,
  body: unknown,
  fieldsOnly: boolean,
): Promise<{ docGenFormFields: DocGenFormFields[] }> {
  if (envelope.status !== 'created')
    throw apiErrors.invalidStatus(
      `The envelope is ${envelope.status}: docGenFormFields are set on a draft (status created) only.`,
    );
  const list = lenientArray(lenientObject(body, 'docGenFormFieldRequest')?.['docGenFormFields'], 'docGenFormFields');
  if (list === undefined || list.length === 0)
    throw apiErrors.invalidBody("'docGenFormFields' must list the documents whose fields are set.");
  const documents = docGenDocuments(deps, envelope.id);
  // One entry after the other: the first bad entry is the one refused.
  const updates: Array<{ document: EnvelopeDocGenDocument; fields: DocGenFormField[] }> = [];
  for (const [i, raw] of list.entries()) {
    const field = `docGenFormFields[${i}]`;
    const entry = lenientObject(raw, field) ?? {};
    const id = lenientString(entry['documentId'], `${field}.documentId`)?.toLowerCase();
    const document = documents.find((d) => d.documentIdGuid === id || d.documentId === id);
    if (document === undefined)
      throw new ApiError(
        400,
        'DOCUMENT_DOES_NOT_EXIST',
        `The document specified was not found. ${field}.documentId ${id ?? '(none)'} is not a DocGen document of the envelope.`,
      );
    const fields = (lenientArray(entry['docGenFormFieldList'], `${field}.docGenFormFieldList`) ?? []).map((f, j) =>
      docGenFieldOf(f, `${field}.docGenFormFieldList[${j}]`),
    );
    await checkFields(deps, document, fields);
    updates.push({ document, fields });
  }
  for (const { document, fields } of updates) {
    if (fieldsOnly) docGenStore(deps.db, deps.blobs).setFields(envelope.id, document, fields, false);
    else await generateLetter(deps, envelope.id, document, fields);
  }
  if (!fieldsOnly) await placeTabsAgain(deps, envelope.id);
  return (await docGenFormFieldsJson(deps, envelope)) as { docGenFormFields: DocGenFormFields[] };
}

/**
 * Before a draft with DocGen documents is sent: each must have its values
 * (refused otherwise, naming the fields), and a letter whose values were set
 * with update_docgen_formfields_only is generated now, so that what is sent,
 * signed and stamped is the letter.
 */
export async function generateBeforeSend(deps: DocGenDeps, envelopeId: string): Promise<void> {
  let generated = false;
  for (const document of docGenDocuments(deps, envelopeId)) {
    if (document.generated) continue;
    if (document.fields === null) {
      const names = (await mergeFieldsOf(deps, document)).map((f) => f.name);
      throw apiErrors.invalidParameter(
        `Document ${document.documentId} is a DocGen document whose fields have no values (${names.join(', ')}): set them with PUT docGenFormFields before sending.`,
      );
    }
    await generateLetter(deps, envelopeId, document, document.fields);
    generated = true;
  }
  // A tab whose anchor waited for the letter and was not placed (its PUT was refused) is placed now or refused again.
  if (generated || waitingTabs(deps, envelopeId)) await placeTabsAgain(deps, envelopeId);
}

/** Whether a recipient has an anchored tab (or radio) still unplaced, kept at creation for a letter to come (place-tabs.ts). */
function waitingTabs(deps: DocGenDeps, envelopeId: string): boolean {
  const unplaced = (tab: Record<string, unknown>) => hasAnchor(tab) && tab['pageNumber'] === undefined;
  return deps.envelopes
    .recipients(envelopeId)
    .some((r) =>
      tabsByKind(r.tabs).some(
        ({ tab }) =>
          unplaced(tab) ||
          (Array.isArray(tab['radios']) &&
            (tab['radios'] as unknown[]).some(
              (x) => typeof x === 'object' && x !== null && unplaced(x as Record<string, unknown>),
            )),
      ),
    );
}

function docGenDocuments(deps: DocGenDeps, envelopeId: string): EnvelopeDocGenDocument[] {
  return docGenStore(deps.db, deps.blobs).documents(envelopeId, deps.envelopes.documents(envelopeId));
}

async function checkFields(
  deps: DocGenDeps,
  document: EnvelopeDocGenDocument,
  fields: readonly DocGenFormField[],
): Promise<void> {
  const problem = docGenFieldsProblem(await mergeFieldsOf(deps, document), fields);
  if (problem !== undefined)
    throw apiErrors.invalidParameter(`Document ${document.documentIdGuid}: ${problem.message}`);
}

/** The letter generated from the DOCX and its values, made the document's PDF (a new GUID). */
async function generateLetter(
  deps: DocGenDeps,
  envelopeId: string,
  document: EnvelopeDocGenDocument,
  fields: DocGenFormField[],
): Promise<void> {
  const record = deps.envelopes.documents(envelopeId).find((d) => d.documentId === document.documentId)!;
  const pdf = await deps.documentWork.convert({
    documentId: document.documentId,
    name: record.name,
    fileExtension: 'docx',
    bytes: deps.blobs.get(document.docxSha256),
    order: undefined,
    docGen: { fields },
  });
  const store = docGenStore(deps.db, deps.blobs);
  const sha256 = deps.blobs.put(pdf);
  deps.db.transaction(() => {
    store.replaceDraftDocument(envelopeId, document.documentId, sha256, pdf.length, quickPageCount(pdf));
    store.setFields(envelopeId, document, fields, true);
  })();
}

/** Every recipient's anchored tabs placed on the documents as they are now. */
async function placeTabsAgain(deps: DocGenDeps, envelopeId: string): Promise<void> {
  const text = new EnvelopeText(
    deps.envelopes
      .documents(envelopeId)
      .map((d) => ({ documentId: d.documentId, bytes: () => deps.blobs.get(d.sha256) })),
    (doc) => deps.documentWork.readText(doc),
  );
  for (const recipient of deps.envelopes.recipients(envelopeId)) {
    const tabs = await replaceAnchoredTabs(recipient.tabs, recipient.recipientId, text);
    deps.envelopes.updateRecipientTabs(envelopeId, recipient.recipientId, tabs);
  }
}

/**
 * An envelope created with status sent whose documents hold a DocGen draft
 * (a template's DOCX with merge fields, values never given): refused, as
 * DocuSign cannot generate the letter; make a draft and set its fields.
 */
export function refuseUngeneratedSend(
  deps: Pick<DocGenDeps, 'db' | 'blobs'>,
  documents: ReadonlyArray<{ documentId: string; originalSha256: string }>,
): void {
  const draft = documents.find((d) => docGenStore(deps.db, deps.blobs).isDraftPdf(d.originalSha256));
  if (draft !== undefined)
    throw apiErrors.invalidParameter(
      `Document ${draft.documentId} is a DocGen document whose fields have no values: create the envelope as a draft (status created), set them with PUT docGenFormFields, then send it.`,
    );
}

/** The intake of DocGen documents for a request: their DOCX kept (document-intake.ts). */
export function docGenIntake(deps: Pick<DocGenDeps, 'db' | 'blobs'>, detectMergeFields = false): DocGenIntake {
  const store = docGenStore(deps.db, deps.blobs);
  return { keepSource: (pdf, docx) => store.keepSource(pdf, docx), detectMergeFields };
}
