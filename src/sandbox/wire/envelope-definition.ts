import {
  recipientKind,
  recipientKinds,
  shorthandRecipientKind,
  unmodelledRecipientCollections,
  type RecipientKindName,
  type Tabs,
} from '../../envelope/index.js';
import { ApiError, apiErrors } from '../api-error.js';
import {
  lenientArray,
  lenientObject,
  lenientPositiveInt,
  lenientRoutingOrder,
  lenientString,
  stringifyScalars,
} from './lenient.js';
import { unroutedRecipientsMessage } from './routed-kinds.js';
import { camelCaseKeys } from './camel-case-keys.js';

/** A document of a creation request, bytes decoded. */
export interface IncomingDocument {
  documentId: string;
  name: string;
  /** As sent (`pdf`, `docx`, `.HTML` …); absent, the bytes decide, then the name's extension (document-intake.ts). */
  fileExtension: string | undefined;
  /** As sent: a PDF, or a document DocuSign converts (converted by buildEnvelope). */
  bytes: Buffer;
  order: number | undefined;
}

/**
 * The fields only some kinds have (`#/definitions/inPersonSigner`,
 * `#/definitions/witness`): the host of an in-person signing and who signs in
 * front of them, whom a witness signs for.
 */
export interface RecipientDetails {
  hostName?: string;
  hostEmail?: string;
  signerName?: string;
  signerEmail?: string;
  witnessFor?: string;
}

/** A recipient of a creation request (from `recipients`, filed by kind, or `templateRoles`). */
export interface IncomingRecipient {
  kind: RecipientKindName;
  recipientId: string | undefined;
  /** The recipient's name; an in-person signer's is its host's (`hostName`), as DocuSign addresses it. */
  name: string;
  email: string;
  details: RecipientDetails;
  /** What the recipient must type before the documents show (`accessCode`); kept only as a hash. */
  accessCode: string | undefined;
  clientUserId: string | undefined;
  routingOrder: number | undefined;
  roleName: string | undefined;
  tabs: Tabs | undefined;
  emailSubject: string | undefined;
  emailBody: string | undefined;
  supportedLanguage: string | undefined;
}

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
  const recipients = parseRecipients(lenientObject(def['recipients'], 'recipients'));
  const templateId = lenientString(def['templateId'], 'templateId');
  const rolesRaw = lenientArray(def['templateRoles'], 'templateRoles');
  const templateRoles = rolesRaw?.map((raw, i) =>
    parseRecipient(raw, shorthandRecipientKind, `templateRoles[${i}]`, true),
  );
  // A draft may start empty, as DocuSign allows (documents are added before sending); sending needs them.
  if (templateId === undefined && documents.length === 0 && statusText !== 'created') {
    throw apiErrors.invalidBody('An envelope sent at once needs documents (with documentBase64) or a templateId.');
  }
  if (templateId !== undefined && documents.length > 0) {
    throw apiErrors.invalidBody(
      'Send either documents or a templateId, not both (composite templates are not supported).',
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
  };
}

function parseDocument(raw: unknown, index: number, fileParts: Map<string, Buffer>): IncomingDocument {
  const field = `documents[${index}]`;
  const doc = lenientObject(raw, field)!;
  const documentId = lenientPositiveInt(doc['documentId'], `${field}.documentId`);
  if (documentId === undefined) throw apiErrors.invalidBody(`${field}.documentId is required.`);
  const name = lenientString(doc['name'], `${field}.name`);
  if (!name) throw apiErrors.invalidBody(`${field}.name is required.`);
  const content = doc['documentBase64'];
  let bytes: Buffer | undefined;
  if (Buffer.isBuffer(content)) {
    // Decoded already by the JSON body parser (wire/json-body.ts).
    bytes = content;
  } else {
    const base64 = lenientString(content, `${field}.documentBase64`);
    // No character-by-character check on the hot path: node skips what is not
    // base64, and the PDF check that follows refuses what that leaves.
    bytes = base64 !== undefined ? Buffer.from(base64, 'base64') : fileParts.get(String(documentId));
  }
  if (!bytes || bytes.length === 0) {
    throw apiErrors.invalidBody(
      `${field} has no content: send documentBase64, or a multipart file part for documentId ${documentId}.`,
    );
  }
  return {
    documentId: String(documentId),
    name,
    fileExtension: lenientString(doc['fileExtension'], `${field}.fileExtension`) || undefined,
    bytes,
    order: lenientPositiveInt(doc['order'], `${field}.order`),
  };
}

/**
 * The recipients of every kind in the catalogue; a collection signrun does
 * not model (a seal, a notary) is refused rather than dropped silently.
 */
function parseRecipients(recipients: Record<string, unknown> | undefined): IncomingRecipient[] {
  if (!recipients) return [];
  for (const collection of unmodelledRecipientCollections) {
    const list = lenientArray(recipients[collection], `recipients.${collection}`);
    if (list && list.length > 0) throw apiErrors.invalidBody(unroutedRecipientsMessage(collection));
  }
  const out: IncomingRecipient[] = [];
  for (const kind of recipientKinds) {
    const list = lenientArray(recipients[kind.collection], `recipients.${kind.collection}`) ?? [];
    list.forEach((raw, i) => out.push(parseRecipient(raw, kind.name, `recipients.${kind.collection}[${i}]`, false)));
  }
  return out;
}

function parseRecipient(raw: unknown, kind: RecipientKindName, field: string, isRole: boolean): IncomingRecipient {
  const s = lenientObject(raw, field)!;
  const details = parseDetails(s, kind, field);
  // An in-person signer is addressed through its host: DocuSign's own example
  // (code-examples eg039) sends hostName/hostEmail/signerName and no name or email.
  const name = lenientString(s['name'], `${field}.name`) || details.hostName;
  const email = lenientString(s['email'], `${field}.email`) || details.hostEmail;
  if (!name) throw apiErrors.invalidBody(`${field}.name is required.`);
  if (!email) throw apiErrors.invalidBody(`${field}.email is required.`);
  checkEmail(email, `${field}.email`);
  if (details.signerEmail) checkEmail(details.signerEmail, `${field}.signerEmail`);
  const roleName = lenientString(s['roleName'], `${field}.roleName`);
  if (isRole && !roleName) throw apiErrors.invalidBody(`${field}.roleName is required.`);
  const recipientId = lenientPositiveInt(s['recipientId'], `${field}.recipientId`);
  const notification = lenientObject(s['emailNotification'], `${field}.emailNotification`);
  const tabs =
    s['tabs'] === undefined || s['tabs'] === null
      ? undefined
      : (stringifyScalars(lenientObject(s['tabs'], `${field}.tabs`)) as Tabs);
  return {
    kind,
    recipientId: recipientId === undefined ? undefined : String(recipientId),
    name,
    email,
    details,
    accessCode: lenientString(s['accessCode'], `${field}.accessCode`) || undefined,
    clientUserId: lenientString(s['clientUserId'], `${field}.clientUserId`) || undefined,
    routingOrder: lenientRoutingOrder(s['routingOrder'], `${field}.routingOrder`),
    roleName,
    tabs,
    emailSubject:
      lenientString(notification?.['emailSubject'], `${field}.emailNotification.emailSubject`) ??
      lenientString(s['emailSubject'], `${field}.emailSubject`),
    emailBody:
      lenientString(notification?.['emailBody'], `${field}.emailNotification.emailBody`) ??
      lenientString(s['emailBody'], `${field}.emailBody`),
    supportedLanguage:
      lenientString(notification?.['supportedLanguage'], `${field}.emailNotification.supportedLanguage`) ??
      lenientString(s['supportedLanguage'], `${field}.supportedLanguage`),
  };
}

function checkEmail(email: string, field: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new ApiError(
      400,
      'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT',
      `The email address for the recipient is invalid: ${field}.`,
    );
  }
}

/** The fields of the kinds that have them (the catalogue's needsHost, signsFor), each required where DocuSign requires it. */
function parseDetails(s: Record<string, unknown>, kind: RecipientKindName, field: string): RecipientDetails {
  const traits = recipientKind(kind);
  const details: RecipientDetails = {};
  const text = (key: keyof RecipientDetails) => {
    const value = lenientString(s[key], `${field}.${key}`);
    if (value) details[key] = value;
  };
  if (traits.needsHost) {
    for (const key of ['hostName', 'hostEmail', 'signerName', 'signerEmail'] as const) text(key);
    for (const key of ['hostName', 'hostEmail', 'signerName'] as const)
      if (!details[key]) throw apiErrors.invalidBody(`${field}.${key} is required for an in-person signer.`);
  }
  if (traits.signsFor) {
    const witnessFor = lenientPositiveInt(s['witnessFor'], `${field}.witnessFor`);
    if (witnessFor === undefined) throw apiErrors.invalidBody(`${field}.witnessFor is required for a witness.`);
    details.witnessFor = String(witnessFor);
  }
  return details;
}

function parseCustomFields(raw: unknown): IncomingCustomField[] {
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
