import {
  recipientKind,
  recipientKinds,
  unmodelledRecipientCollections,
  type DocGenFormField,
  type RecipientKindName,
  type Tabs,
} from '../../../../envelope/index.js';
import { ApiError, apiErrors } from '../../../platform/http/api-error.js';
import {
  lenientArray,
  lenientObject,
  lenientPositiveInt,
  lenientRoutingOrder,
  lenientString,
  stringifyScalars,
} from '../../../platform/http/lenient.js';
import { responsiveHtml, type ResponsiveField } from './responsive-html.js';
import { unroutedRecipientsMessage } from './routed-kinds.js';

// The parts every definition shares (envelopes, templates, composite
// templates' inline templates): documents and recipients of every kind, read
// with DocuSign's leniencies.

/** A document of a creation request, bytes decoded. */
export interface IncomingDocument {
  documentId: string;
  name: string;
  /** As sent (`pdf`, `docx`, `.HTML` …); absent, the bytes decide, then the name's extension (document-intake.ts). */
  fileExtension: string | undefined;
  /** As sent: a PDF, or a document DocuSign converts (converted by buildEnvelope). */
  bytes: Buffer;
  order: number | undefined;
  /** A document given as responsive HTML (`htmlDefinition.source`): its field elements, as tabs to give (wire/responsive-html.ts). */
  responsiveFields?: ResponsiveField[];
  /**
   * A DOCX sent with `isDocGenDocument: "true"` (DocuSign's Document Generation), with the values of its
   * merge fields when the request gives them (`docGenFormFields`): the letter is generated from them at intake.
   */
  docGen?: { fields: DocGenFormField[] | undefined };
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
  /** The documents hidden from this recipient when the envelope enforces signer visibility (document-visibility.ts). */
  excludedDocuments?: string[];
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

/**
 * How a recipient is read: `recipient` (an envelope's: name and email
 * required), `role` (a templateRoles entry: roleName required too) or
 * `template` (a template's, or an inline template's: a role may be a
 * placeholder without name or email, filled when an envelope uses it) or
 * `placeholder` (a conditional routing placeholder: no email yet, the rule
 * that names it fills it when its turn comes; wire/conditional-recipients.ts).
 */
export type RecipientReading = 'recipient' | 'role' | 'template' | 'placeholder';

export function parseDocument(raw: unknown, index: number, fileParts: Map<string, Buffer>): IncomingDocument {
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
  let fileExtension = lenientString(doc['fileExtension'], `${field}.fileExtension`) || undefined;
  let responsiveFields: ResponsiveField[] | undefined;
  // Responsive signing: the HTML itself in htmlDefinition.source (`document`
  // there means "made from the document's own bytes", which documentBase64 brings).
  const source = lenientString(
    lenientObject(doc['htmlDefinition'], `${field}.htmlDefinition`)?.['source'],
    `${field}.htmlDefinition.source`,
  );
  if ((!bytes || bytes.length === 0) && source !== undefined && source.trim() !== '' && source !== 'document') {
    const responsive = responsiveHtml(source, String(documentId));
    bytes = Buffer.from(responsive.html, 'utf8');
    fileExtension = 'html';
    responsiveFields = responsive.fields;
  }
  if (!bytes || bytes.length === 0) {
    throw apiErrors.invalidBody(
      `${field} has no content: send documentBase64, a multipart file part for documentId ${documentId}, or the HTML in htmlDefinition.source.`,
    );
  }
  return {
    documentId: String(documentId),
    name,
    fileExtension,
    bytes,
    order: lenientPositiveInt(doc['order'], `${field}.order`),
    ...(responsiveFields ? { responsiveFields } : {}),
    ...docGenOf(doc, field),
  };
}

/** A document's Document Generation: `isDocGenDocument` ("true", lenient as DocuSign's booleans) and its `docGenFormFields`. */
function docGenOf(doc: Record<string, unknown>, field: string): Pick<IncomingDocument, 'docGen'> {
  const given = doc['isDocGenDocument'];
  const flag = given === true || (typeof given === 'string' && given.trim().toLowerCase() === 'true');
  const list = lenientArray(doc['docGenFormFields'], `${field}.docGenFormFields`);
  if (!flag && list === undefined) return {};
  if (list === undefined) return { docGen: { fields: undefined } };
  const fields = list.map((raw, i) => docGenFieldOf(raw, `${field}.docGenFormFields[${i}]`));
  return { docGen: { fields } };
}

/** One `DocGenFormField` of a request: name, value, type, format, rowValues (each row's list of fields). */
export function docGenFieldOf(raw: unknown, field: string): DocGenFormField {
  const f = lenientObject(raw, field) ?? {};
  const name = lenientString(f['name'], `${field}.name`);
  if (!name) throw apiErrors.invalidBody(`${field}.name is required.`);
  const out: DocGenFormField = { name };
  const value = lenientString(f['value'], `${field}.value`);
  if (value !== undefined) out.value = value;
  const type = lenientString(f['type'], `${field}.type`);
  if (type !== undefined) out.type = type;
  const format = lenientObject(f['format'], `${field}.format`);
  if (format) {
    const expression = lenientString(format['expression'], `${field}.format.expression`);
    const locale = lenientString(format['locale'], `${field}.format.locale`);
    out.format = { ...(expression !== undefined ? { expression } : {}), ...(locale !== undefined ? { locale } : {}) };
  }
  const rows = lenientArray(f['rowValues'], `${field}.rowValues`);
  if (rows)
    out.rowValues = rows.map((row, r) => ({
      docGenFormFieldList: (
        lenientArray(
          lenientObject(row, `${field}.rowValues[${r}]`)?.['docGenFormFieldList'],
          `${field}.rowValues[${r}]`,
        ) ?? []
      ).map((cell, c) => docGenFieldOf(cell, `${field}.rowValues[${r}].docGenFormFieldList[${c}]`)),
    }));
  return out;
}

/**
 * The recipients of every kind in the catalogue; a collection signrun does
 * not model (a seal, a notary) is refused rather than dropped silently.
 */
export function parseRecipients(
  recipients: Record<string, unknown> | undefined,
  reading: RecipientReading = 'recipient',
  placeholders: ReadonlySet<string> = new Set(),
): IncomingRecipient[] {
  if (!recipients) return [];
  for (const collection of unmodelledRecipientCollections) {
    const list = lenientArray(recipients[collection], `recipients.${collection}`);
    if (list && list.length > 0) throw apiErrors.invalidBody(unroutedRecipientsMessage(collection));
  }
  const out: IncomingRecipient[] = [];
  for (const kind of recipientKinds) {
    const list = lenientArray(recipients[kind.collection], `recipients.${kind.collection}`) ?? [];
    list.forEach((raw, i) => {
      const id = lenientString(
        lenientObject(raw, `recipients.${kind.collection}[${i}]`)?.['recipientId'],
        'recipientId',
      );
      const as = id !== undefined && placeholders.has(id) ? 'placeholder' : reading;
      out.push(parseRecipient(raw, kind.name, `recipients.${kind.collection}[${i}]`, as));
    });
  }
  return out;
}

export function parseRecipient(
  raw: unknown,
  kind: RecipientKindName,
  field: string,
  reading: RecipientReading,
): IncomingRecipient {
  const s = lenientObject(raw, field)!;
  const details = parseDetails(s, kind, field, reading);
  // An in-person signer is addressed through its host: DocuSign's own example
  // (code-examples eg039) sends hostName/hostEmail/signerName and no name or email.
  const name = lenientString(s['name'], `${field}.name`) || details.hostName;
  const email = lenientString(s['email'], `${field}.email`) || details.hostEmail;
  if (!name && reading !== 'template') throw apiErrors.invalidBody(`${field}.name is required.`);
  if (!email && reading !== 'template' && reading !== 'placeholder')
    throw apiErrors.invalidBody(`${field}.email is required.`);
  if (email) checkEmail(email, `${field}.email`);
  if (details.signerEmail) checkEmail(details.signerEmail, `${field}.signerEmail`);
  const roleName = lenientString(s['roleName'], `${field}.roleName`);
  if (reading === 'role' && !roleName) throw apiErrors.invalidBody(`${field}.roleName is required.`);
  const recipientId = lenientPositiveInt(s['recipientId'], `${field}.recipientId`);
  const notification = lenientObject(s['emailNotification'], `${field}.emailNotification`);
  const tabs =
    s['tabs'] === undefined || s['tabs'] === null
      ? undefined
      : (stringifyScalars(lenientObject(s['tabs'], `${field}.tabs`)) as Tabs);
  return {
    kind,
    recipientId: recipientId === undefined ? undefined : String(recipientId),
    name: name ?? '',
    email: email ?? '',
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
function parseDetails(
  s: Record<string, unknown>,
  kind: RecipientKindName,
  field: string,
  reading: RecipientReading,
): RecipientDetails {
  const traits = recipientKind(kind);
  const details: RecipientDetails = {};
  const text = (key: Exclude<keyof RecipientDetails, 'excludedDocuments'>) => {
    const value = lenientString(s[key], `${field}.${key}`);
    if (value) details[key] = value;
  };
  if (traits.needsHost) {
    for (const key of ['hostName', 'hostEmail', 'signerName', 'signerEmail'] as const) text(key);
    for (const key of ['hostName', 'hostEmail', 'signerName'] as const)
      // A template's in-person signer may leave them to the envelopes made from it.
      if (!details[key] && reading !== 'template')
        throw apiErrors.invalidBody(`${field}.${key} is required for an in-person signer.`);
  }
  const excluded = lenientArray(s['excludedDocuments'], `${field}.excludedDocuments`);
  if (excluded && excluded.length > 0)
    details.excludedDocuments = excluded.map((d, i) => {
      const id = lenientPositiveInt(d, `${field}.excludedDocuments[${i}]`);
      if (id === undefined) throw apiErrors.invalidBody(`${field}.excludedDocuments[${i}] must be a documentId.`);
      return String(id);
    });
  if (traits.signsFor) {
    const witnessFor = lenientPositiveInt(s['witnessFor'], `${field}.witnessFor`);
    if (witnessFor === undefined) throw apiErrors.invalidBody(`${field}.witnessFor is required for a witness.`);
    details.witnessFor = String(witnessFor);
  }
  return details;
}
