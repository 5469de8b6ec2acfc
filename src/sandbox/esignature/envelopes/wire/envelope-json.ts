import {
  recipientKind,
  recipientKinds,
  recipientsObject,
  unmodelledRecipientCollections,
  type EnvelopeRecipients,
  type WireRecipient,
} from '../../../../envelope/index.js';
import { isoTime } from '../../../platform/clock.js';
import { currentRoutingOrder } from '../routing.js';
import type { EnvelopeRecord, RecipientRecord, DocumentRecord, CustomFieldRecord } from '../repository.js';

// Response shapes follow the Swagger definitions named on each function;
// every value is a string, as there.

const time = (ms: number | null) => (ms === null ? undefined : isoTime(ms));

/** `#/definitions/customFields`. */
export function customFieldsJson(fields: CustomFieldRecord[]) {
  return {
    textCustomFields: fields
      .filter((f) => f.kind === 'text')
      .map((f) => ({ fieldId: f.fieldId, name: f.name, value: f.value, show: f.show, required: f.required })),
    listCustomFields: fields
      .filter((f) => f.kind === 'list')
      .map((f) => ({
        fieldId: f.fieldId,
        name: f.name,
        value: f.value,
        show: f.show,
        required: f.required,
        listItems: f.listItems ?? [],
      })),
  };
}

/**
 * `#/definitions/envelopeDocument`: a content document as the documents
 * listing (Documents_GetDocuments) and `include=documents` of the envelope
 * and its listing give it. `pages` only when the caller has the count: the
 * status listing does not count pages (a count may mean parsing the PDF).
 */
export function envelopeDocumentJson(envelopeId: string, d: DocumentRecord, order: number, pages?: number) {
  return {
    documentId: d.documentId,
    name: d.name,
    type: 'content',
    uri: `/envelopes/${envelopeId}/documents/${d.documentId}`,
    order: String(order),
    ...(pages !== undefined ? { pages: String(pages) } : {}),
    sizeBytes: String(d.size),
    display: 'inline',
    includeInDownload: 'true',
    signerMustAcknowledge: 'no_interaction',
    containsPdfFormFields: 'false',
    authoritativeCopy: 'false',
    availableDocumentTypes: [{ type: 'electronic', isDefault: 'true' }],
  };
}

/**
 * `#/definitions/envelope` (GET one envelope, and each item of the status-changes listing).
 * `recipientTabs: false` leaves the recipients' tabs out, as DocuSign does unless `include`
 * names `tabs` (default true: the recipients as GET …/recipients gives them).
 */
export function envelopeJson(
  e: EnvelopeRecord,
  extra: {
    customFields?: CustomFieldRecord[];
    recipients?: RecipientRecord[];
    recipientTabs?: boolean;
    documents?: DocumentRecord[];
  } = {},
) {
  const uri = `/envelopes/${e.id}`;
  return {
    envelopeId: e.id,
    status: e.status,
    emailSubject: e.emailSubject,
    emailBlurb: e.emailBlurb,
    envelopeUri: uri,
    documentsUri: `${uri}/documents`,
    documentsCombinedUri: `${uri}/documents/combined`,
    certificateUri: `${uri}/documents/certificate`,
    recipientsUri: `${uri}/recipients`,
    customFieldsUri: `${uri}/custom_fields`,
    createdDateTime: isoTime(e.createdAt),
    lastModifiedDateTime: isoTime(e.statusChangedAt),
    statusChangedDateTime: isoTime(e.statusChangedAt),
    sentDateTime: time(e.sentAt),
    initialSentDateTime: time(e.sentAt),
    deliveredDateTime: time(e.deliveredAt),
    completedDateTime: time(e.completedAt),
    declinedDateTime: time(e.declinedAt),
    voidedDateTime: time(e.voidedAt),
    voidedReason: e.voidedReason ?? undefined,
    transactionId: e.transactionId ?? undefined,
    purgeState: 'unpurged',
    is21CFRPart11: 'false',
    isSignatureProviderEnvelope: 'false',
    // Not in #/definitions/envelope, but stored and returned as the issue asks (Swagger objects allow more members).
    eventNotification: e.eventNotification ?? undefined,
    ...(extra.customFields ? { customFields: customFieldsJson(extra.customFields) } : {}),
    ...(extra.recipients
      ? { recipients: recipientsJson(extra.recipients, { tabs: extra.recipientTabs !== false }) }
      : {}),
    // `include=documents` (Envelopes_GetEnvelopes, Envelopes_GetEnvelope): #/definitions/envelope's envelopeDocuments.
    ...(extra.documents
      ? { envelopeDocuments: extra.documents.map((d, i) => envelopeDocumentJson(e.id, d, i + 1)) }
      : {}),
  };
}

/** Every recipient collection of DocuSign, each an empty list. */
function emptyCollections(): Record<string, never[]> {
  const out: Record<string, never[]> = {};
  for (const kind of recipientKinds) out[kind.collection] = [];
  for (const collection of unmodelledRecipientCollections) out[collection] = [];
  return out;
}

/**
 * A recipient as DocuSign answers it, with the fields of the kinds that have
 * them (`#/definitions/inPersonSigner`: host and signer; `witness`:
 * witnessFor) and `recipientType`. Never its access code: DocuSign keeps
 * `accessCode` out of every answer, and the sandbox has only its hash.
 */
export type AnsweredRecipient = WireRecipient & {
  recipientType?: string;
  hostName?: string;
  hostEmail?: string;
  signerName?: string;
  signerEmail?: string;
  witnessFor?: string;
};

/** `#/definitions/signer`, `carbonCopy`, … : one recipient in its kind's shape (without its tabs: `tabs: false`). */
export function recipientJson(r: RecipientRecord, options: { tabs?: boolean } = {}): AnsweredRecipient {
  const kind = recipientKind(r.kind);
  return {
    recipientId: r.recipientId,
    recipientIdGuid: r.recipientIdGuid,
    recipientType: r.kind,
    userId: r.userId,
    name: r.name,
    email: r.email,
    ...r.details,
    clientUserId: r.clientUserId ?? undefined,
    roleName: r.roleName ?? undefined,
    routingOrder: String(r.routingOrder),
    status: r.status,
    requireIdLookup: 'false',
    // Swagger gives creationReason to the kinds that sign only.
    creationReason: kind.signs ? 'sender' : undefined,
    deliveryMethod: 'email',
    tabs: options.tabs !== false && kind.hasTabs && Object.keys(r.tabs).length > 0 ? r.tabs : undefined,
    emailNotification:
      r.emailSubject || r.emailBody || r.supportedLanguage
        ? {
            emailSubject: r.emailSubject ?? undefined,
            emailBody: r.emailBody ?? undefined,
            supportedLanguage: r.supportedLanguage ?? undefined,
          }
        : undefined,
    sentDateTime: time(r.sentAt),
    deliveredDateTime: time(r.deliveredAt),
    signedDateTime: time(r.signedAt),
    declinedDateTime: time(r.declinedAt),
    declinedReason: r.declinedReason ?? undefined,
  };
}

/**
 * `#/definitions/EnvelopeRecipients`: every recipient under its kind's
 * collection, in submission order, every other collection DocuSign has
 * empty, and where the routing stands (routing.ts).
 */
export function recipientsJson(recipients: RecipientRecord[], options: { tabs?: boolean } = {}): EnvelopeRecipients {
  return {
    ...emptyCollections(),
    ...recipientsObject(recipients.map((r) => ({ kind: r.kind, recipient: recipientJson(r, options) }))),
    recipientCount: String(recipients.length),
    currentRoutingOrder: String(currentRoutingOrder(recipients)),
  };
}
