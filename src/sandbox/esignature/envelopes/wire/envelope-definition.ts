import { shorthandRecipientKind } from '../../../../envelope/index.js';
import { apiErrors } from '../../../platform/http/api-error.js';
import { parseConditionalRecipients, type ConditionalRecipient } from './conditional-recipients.js';
import { lenientArray, lenientObject, lenientString } from '../../../platform/http/lenient.js';
import { camelCaseKeys } from './camel-case-keys.js';
import { parseDocument, parseRecipient, parseRecipients } from './definition-parts.js';
import { assignResponsiveFields } from './responsive-html.js';
import { parseWorkflow, type WorkflowState } from '../workflow/envelope-workflow.js';
import { parseCompositeTemplates, type IncomingCompositeTemplate } from './composite-definition.js';

// The parts shared with templates and composite templates live in definition-parts.ts.
export type { IncomingDocument, IncomingRecipient, RecipientDetails } from './definition-parts.js';
import type { IncomingDocument, IncomingRecipient } from './definition-parts.js';

/** A custom field of a creation request (`customFields.textCustomFields` / `listCustomFields`). */
export interface IncomingCustomField {
  kind: 'text' | 'list';
  fieldId: string | undefined;
  name: string;
  value: string;
  show: string;
  required: string;
  listItems: string[] | null;
}

/** `#/definitions/envelopeDefinition`, reduced to what the sandbox keeps, after DocuSign's leniencies. */
export interface IncomingEnvelope {
  status: 'sent' | 'created';
  emailSubject: string | undefined;
  emailBlurb: string | undefined;
  transactionId: string | undefined;
  eventNotification: Record<string, unknown> | undefined;
  customFields: IncomingCustomField[];
  documents: IncomingDocument[];
  /** The recipients of every kind, in catalogue order then submission order. */
  recipients: IncomingRecipient[];
  templateId: string | undefined;
  templateRoles: IncomingRecipient[] | undefined;
  /** `compositeTemplates` (#/definitions/compositeTemplate), in the order sent; empty when absent. */
  compositeTemplates: IncomingCompositeTemplate[];
  /** `brandId`: the brand its signing page and messages show (routes/brands.ts). */
  brandId: string | undefined;
  /** Placeholder recipients of conditional routing and their rules (`workflow`). */
  conditionalRecipients: ConditionalRecipient[];
  /** `enforceSignerVisibility`: the recipients' excludedDocuments are hidden from them (document-visibility.ts). */
  enforceSignerVisibility: boolean;
  /** Scheduled sending, delayed routing and pauses (`workflow`; envelope-workflow.ts); undefined when none. */
  workflow: WorkflowState | undefined;
}

/**
 * Reads a creation request (`POST …/envelopes`, #/definitions/envelopeDefinition).
 * `fileParts` holds multipart file parts by documentId (DocuSign's
 * multipart/form-data form); documents without documentBase64 take their bytes from there.
 */
export function parseEnvelopeDefinition(body: unknown, fileParts: Map<string, Buffer> = new Map()): IncomingEnvelope {
  const def = lenientObject(camelCaseKeys(body), 'envelopeDefinition');
  if (!def) throw apiErrors.invalidBody('Send an envelope definition as JSON.');
  const statusText = (lenientString(def['status'], 'status') ?? 'created').toLowerCase();
  if (statusText !== 'sent' && statusText !== 'created') {
    throw apiErrors.invalidParameter(`Value for 'status' must be 'created' or 'sent' (got "${statusText}").`);
  }
  const documents = (lenientArray(def['documents'], 'documents') ?? []).map((raw, i) =>
    parseDocument(raw, i, fileParts),
  );
  const seenDocs = new Set<string>();
  for (const d of documents) {
    if (seenDocs.has(d.documentId)) throw apiErrors.invalidBody(`documentId ${d.documentId} is used twice.`);
    seenDocs.add(d.documentId);
  }
  const conditionalRecipients = parseConditionalRecipients(def['workflow']);
  const recipients = parseRecipients(
    lenientObject(def['recipients'], 'recipients'),
    'recipient',
    new Set(conditionalRecipients.map((c) => c.recipientId)),
  );
  for (const d of documents) {
    if (!d.responsiveFields) continue;
    const unknown = assignResponsiveFields(d.responsiveFields, recipients);
    if (unknown) throw apiErrors.invalidBody(`documents (documentId ${d.documentId}): ${unknown}`);
  }
  const templateId = lenientString(def['templateId'], 'templateId');
  const rolesRaw = lenientArray(def['templateRoles'], 'templateRoles');
  const templateRoles = rolesRaw?.map((raw, i) =>
    parseRecipient(raw, shorthandRecipientKind, `templateRoles[${i}]`, 'role'),
  );
  const compositeTemplates = parseCompositeTemplates(def['compositeTemplates'], fileParts);
  if (compositeTemplates.length > 0 && (templateId !== undefined || documents.length > 0 || recipients.length > 0)) {
    // The composite templates carry the documents and recipients then (DocuSign's composite model).
    throw apiErrors.invalidBody(
      'With compositeTemplates, put documents and recipients in them, not in documents, recipients or templateId.',
    );
  }
  // A draft may start empty, as DocuSign allows (documents are added before sending); sending needs them.
  if (
    templateId === undefined &&
    compositeTemplates.length === 0 &&
    documents.length === 0 &&
    statusText !== 'created'
  ) {
    throw apiErrors.invalidBody(
      'An envelope sent at once needs documents (with documentBase64), a templateId or compositeTemplates.',
    );
  }
  if (templateId !== undefined && documents.length > 0) {
    throw apiErrors.invalidBody(
      'Send either documents or a templateId, not both (compositeTemplates combine a template with documents).',
    );
  }
  const customFields = parseCustomFields(def['customFields']);
  const eventNotification = lenientObject(def['eventNotification'], 'eventNotification');
  return {
    status: statusText,
    emailSubject: lenientString(def['emailSubject'], 'emailSubject'),
    emailBlurb: lenientString(def['emailBlurb'], 'emailBlurb'),
    transactionId: lenientString(def['transactionId'], 'transactionId'),
    eventNotification,
    customFields,
    documents,
    recipients,
    templateId,
    templateRoles,
    compositeTemplates,
    brandId: lenientString(def['brandId'], 'brandId') || undefined,
    conditionalRecipients,
    workflow: parseWorkflow(def['workflow']),
    enforceSignerVisibility:
      lenientString(def['enforceSignerVisibility'], 'enforceSignerVisibility')?.toLowerCase() === 'true',
  };
}

/** `customFields` of an envelope or template definition: its text and list fields, DocuSign's defaults applied. */
export function parseCustomFields(raw: unknown): IncomingCustomField[] {
  const fields = lenientObject(raw, 'customFields');
  if (!fields) return [];
  const out: IncomingCustomField[] = [];
  for (const [kind, key] of [
    ['text', 'textCustomFields'],
    ['list', 'listCustomFields'],
  ] as const) {
    for (const [i, item] of (lenientArray(fields[key], `customFields.${key}`) ?? []).entries()) {
      const f = lenientObject(item, `customFields.${key}[${i}]`)!;
      const name = lenientString(f['name'], `customFields.${key}[${i}].name`);
      if (!name) throw apiErrors.invalidBody(`customFields.${key}[${i}].name is required.`);
      out.push({
        kind,
        fieldId: lenientString(f['fieldId'], `customFields.${key}[${i}].fieldId`),
        name,
        value: lenientString(f['value'], `customFields.${key}[${i}].value`) ?? '',
        show: lenientString(f['show'], `customFields.${key}[${i}].show`) ?? 'true',
        required: lenientString(f['required'], `customFields.${key}[${i}].required`) ?? 'false',
        listItems:
          kind === 'list'
            ? (lenientArray(f['listItems'], `customFields.${key}[${i}].listItems`) ?? []).map(
                (v, j) => lenientString(v, `listItems[${j}]`) ?? '',
              )
            : null,
      });
    }
  }
  return out;
}
