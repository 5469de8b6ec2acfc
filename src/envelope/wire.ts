/**
 * DocuSign's envelope on the wire, once, for the client that sends it and
 * the sandbox that receives it: envelopes, recipients, tabs, documents and
 * templates, named after the Swagger definitions they follow
 * (test/fixtures/docusign/esignature.rest.swagger-v2.1.json and …-v2.json,
 * `#/definitions/<name>`). Only the fields signrun sends or reads are
 * listed; every id and number stays a string, as on the wire.
 *
 * Recipients and tabs are keyed by the catalogues' collections
 * (recipient-kinds.ts, tab-kinds.ts): `recipientsByKind` and `tabsByKind`
 * read them without naming one.
 */
import {
  recipientKind,
  recipientKinds,
  type RecipientCollection,
  type RecipientKind,
  type RecipientKindName,
} from './recipient-kinds.js';
import { tabKind, tabKinds, type TabCollection, type TabKind, type TabKindName } from './tab-kinds.js';

/** A tab's place by position: points from the page's top-left corner, page 1-based (DocuSign's strings). */
export interface TabPosition {
  documentId: string;
  pageNumber: string;
  xPosition: string;
  yPosition: string;
}

/** A tab's place at every occurrence of a text in the envelope's documents (DocuSign's anchor fields, as strings). */
export interface TabAnchor {
  anchorString: string;
  anchorXOffset?: string;
  anchorYOffset?: string;
  anchorUnits?: string;
  anchorIgnoreIfNotPresent?: string;
  anchorCaseSensitive?: string;
  anchorMatchWholeWord?: string;
}

/** A tab of any kind (`#/definitions/signHere`, `text`, …): its place and fields, values as strings. */
export interface WireTab extends Partial<TabPosition>, Partial<TabAnchor> {
  recipientId?: string;
  tabId?: string;
  tabLabel?: string;
  value?: string;
  /** Fields of one kind only (`selected`, `listItems`, `radios`, `formula`, …): see the catalogue. */
  [field: string]: unknown;
}

/** `#/definitions/EnvelopeRecipientTabs` (`tabs`): one list per kind. */
export type Tabs = { [C in TabCollection]?: WireTab[] };

/** `#/definitions/recipientEmailNotification`. */
export interface RecipientEmailNotification {
  emailSubject?: string;
  emailBody?: string;
  supportedLanguage?: string;
}

/**
 * A recipient of any kind (`#/definitions/signer`, `carbonCopy`, …, in
 * requests and in EnvelopeRecipients answers): the fields the kinds share,
 * and those of the kinds that have them (a host, whom a witness signs for).
 */
export interface WireRecipient {
  recipientId?: string;
  recipientIdGuid?: string;
  name?: string;
  email?: string;
  clientUserId?: string;
  routingOrder?: string;
  roleName?: string;
  userId?: string;
  status?: string;
  emailNotification?: RecipientEmailNotification;
  tabs?: Tabs;
  /** A note shown to the recipient. */
  note?: string;
  /** The code the recipient must enter before the documents show (requests only: answers never give it). */
  accessCode?: string;
  /** An in-person signer's host (who opens the session) and the person who signs. */
  hostName?: string;
  hostEmail?: string;
  signerName?: string;
  signerEmail?: string;
  /** A witness's: the recipientId of whom they witness. */
  witnessFor?: string;
  /** When the recipient was sent, opened, signed, declined (ISO 8601), as the status-changes listing gives them. */
  sentDateTime?: string;
  deliveredDateTime?: string;
  signedDateTime?: string;
  declinedDateTime?: string;
  declinedReason?: string;
  /** How the service treats the recipient (answers only): "true"/"false", `sender`, `email`. */
  requireIdLookup?: string;
  creationReason?: string;
  deliveryMethod?: string;
}

/** `#/definitions/EnvelopeRecipients`: one list per kind, and where the routing stands. */
export type EnvelopeRecipients = { [C in RecipientCollection]?: WireRecipient[] } & {
  recipientCount?: string;
  /** The routing order whose recipients can act now. */
  currentRoutingOrder?: string;
};

/** A recipient with its kind, as `recipientsByKind` reads them. */
export interface KindedRecipient {
  kind: RecipientKind;
  recipient: WireRecipient;
}

/**
 * Every recipient of a recipients object, of every kind the catalogue has, in
 * catalogue order then list order; members that are not lists are skipped.
 */
export function recipientsByKind(recipients: Readonly<Record<string, unknown>> | undefined): KindedRecipient[] {
  const out: KindedRecipient[] = [];
  if (!recipients) return out;
  for (const kind of recipientKinds) {
    const list = recipients[kind.collection];
    if (Array.isArray(list)) for (const recipient of list as WireRecipient[]) out.push({ kind, recipient });
  }
  return out;
}

/** A recipients object holding `list`, each under its kind's collection (kinds with nobody are left out). */
export function recipientsObject(
  list: Iterable<{ kind: RecipientKindName; recipient: WireRecipient }>,
): EnvelopeRecipients {
  const out: Record<string, WireRecipient[]> = {};
  for (const { kind, recipient } of list) {
    const collection = recipientKind(kind).collection;
    (out[collection] ??= []).push(recipient);
  }
  return out;
}

/** A tab with its kind, as `tabsByKind` reads them. */
export interface KindedTab {
  kind: TabKind;
  tab: WireTab;
}

/** Every tab of a `tabs` object, of every kind the catalogue has, in catalogue order then list order. */
export function tabsByKind(tabs: Readonly<Record<string, unknown>> | undefined): KindedTab[] {
  const out: KindedTab[] = [];
  if (!tabs) return out;
  for (const kind of tabKinds) {
    const list = tabs[kind.collection];
    if (Array.isArray(list)) for (const tab of list as WireTab[]) if (isObject(tab)) out.push({ kind, tab });
  }
  return out;
}

/** A `tabs` object holding `list`, each under its kind's collection (kinds without tabs are left out). */
export function tabsObject(list: Iterable<{ kind: TabKindName; tab: WireTab }>): Tabs {
  const out: Record<string, WireTab[]> = {};
  for (const { kind, tab } of list) {
    const collection = tabKind(kind).collection;
    (out[collection] ??= []).push(tab);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `#/definitions/textCustomField`. */
export interface TextCustomField {
  name: string;
  value: string;
  /** "true"/"false": shown to recipients. */
  show?: string;
  required?: string;
}

/** `#/definitions/customFields`. */
export interface CustomFields {
  textCustomFields?: TextCustomField[];
}

/** `#/definitions/templateRole`. */
export interface TemplateRole {
  roleName: string;
  name: string;
  email: string;
  clientUserId?: string;
  routingOrder?: string;
  /** Fills the template's tabs of the same `tabLabel` (or adds tabs placed by position or anchor). */
  tabs?: Tabs;
}

import type { DocGenFormField } from './docgen-fields.js';

/** `#/definitions/document` (request side; the PDF travels base64-encoded). */
export interface DocumentDefinition {
  documentId: string;
  name: string;
  fileExtension?: string;
  documentBase64: string;
  /** "true": a DOCX with merge fields, which DocuSign generates when the envelope is sent (Document Generation). */
  isDocGenDocument?: string;
  /** The merge fields' values, given at creation (docusign-esign 10's `Document.docGenFormFields`). */
  docGenFormFields?: DocGenFormField[];
}

/** `#/definitions/notification`: reminders and expiration, every value a string. */
export interface Notification {
  useAccountDefaults?: string;
  reminders?: { reminderEnabled?: string; reminderDelay?: string; reminderFrequency?: string };
  expirations?: { expireEnabled?: string; expireAfter?: string; expireWarn?: string };
}

/** `#/definitions/envelopeDefinition` (POST /v2/accounts/{accountId}/envelopes). */
/** DocuSign's `#/definitions/connectEventData`: what a Connect message carries. */
export interface ConnectEventData {
  version?: 'restv2.1';
  format?: 'json';
  /** e.g. `recipients`, `tabs`, `custom_fields` (the Swagger's list). */
  includeData?: string[];
}

/** DocuSign's `#/definitions/eventNotification`: the envelope's own webhook (booleans as DocuSign's strings). */
export interface EventNotification {
  url: string;
  envelopeEvents?: Array<{ envelopeEventStatusCode: string }>;
  recipientEvents?: Array<{ recipientEventStatusCode: string }>;
  eventData?: ConnectEventData;
  requireAcknowledgment?: 'true' | 'false';
  includeHMAC?: 'true' | 'false';
}

export interface EnvelopeDefinition {
  emailSubject: string;
  emailBlurb?: string;
  /** The account's brand the envelope is sent with (#/definitions/envelopeDefinition brandId). */
  brandId?: string;
  status: 'sent' | 'created';
  documents?: DocumentDefinition[];
  recipients?: EnvelopeRecipients;
  templateId?: string;
  templateRoles?: TemplateRole[];
  /** Several templates, stored and inline, in one envelope (`#/definitions/compositeTemplate`). */
  compositeTemplates?: CompositeTemplate[];
  eventNotification?: EventNotification;
  notification?: Notification;
  customFields?: CustomFields;
  /** Lets a client find an envelope whose creation answer was lost. */
  transactionId?: string;
}

/**
 * `#/definitions/compositeTemplate`: a stored template (`serverTemplates`)
 * overlaid by an inline one whose recipients fill its roles by roleName, or
 * an inline template of documents and recipients of its own.
 */
export interface CompositeTemplate {
  compositeTemplateId: string;
  serverTemplates?: Array<{ sequence: string; templateId: string }>;
  inlineTemplates?: Array<{ sequence: string; documents?: DocumentDefinition[]; recipients?: EnvelopeRecipients }>;
}

/** `#/definitions/envelopeSummary` (201 of envelope creation). */
export interface EnvelopeSummary {
  envelopeId: string;
  status?: string;
  statusDateTime?: string;
  uri?: string;
}

/** `#/definitions/envelope` (GET of one envelope, items of a listing). */
export interface Envelope {
  envelopeId: string;
  status?: string;
  transactionId?: string;
  emailSubject?: string;
  createdDateTime?: string;
  sentDateTime?: string;
  statusChangedDateTime?: string;
  customFields?: CustomFields;
  deliveredDateTime?: string;
  completedDateTime?: string;
  declinedDateTime?: string;
  voidedDateTime?: string;
  voidedReason?: string;
  /** With `include=recipients` on the listing. */
  recipients?: EnvelopeRecipients;
  /** With `include=documents` on the listing (#/definitions/envelope): the ids and names an archive's files lack. */
  envelopeDocuments?: EnvelopeDocument[];
}

/** `#/definitions/envelopesInformation` (GET /v2/accounts/{accountId}/envelopes). */
export interface EnvelopesInformation {
  envelopes?: Envelope[];
  resultSetSize?: string;
  totalSetSize?: string;
  startPosition?: string;
  endPosition?: string;
  /** v2 only (v2.1 pages with start_position and count). */
  nextUri?: string;
  /** The service's time when it ran the query: the `from_date` of the next incremental listing. */
  lastQueriedDateTime?: string;
}

/** `#/definitions/page` (v2.1: the items of envelopeDocument.pages). */
export interface DocumentPage {
  pageId?: string;
  sequence?: string;
  height?: string;
  width?: string;
  dpi?: string;
}

/** `#/definitions/envelopeDocument`. */
export interface EnvelopeDocument {
  documentId: string;
  name?: string;
  type?: string;
  uri?: string;
  order?: string;
  /** v2: the page count as a string ("2"); v2.1: one object per page (read it with pageCountOf). */
  pages?: string | DocumentPage[];
  /** v2.1: the document's size in bytes, as a string: the cap of its download follows from it. */
  sizeBytes?: string;
}

/** `sizeBytes` of a listed document as a number, when it is a whole number. */
export function announcedBytesOf(document: { sizeBytes?: string }): number | undefined {
  const raw = document.sizeBytes;
  return typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

/** `#/definitions/envelopeDocumentsResult` (GET …/envelopes/{envelopeId}/documents). */
export interface EnvelopeDocumentsResult {
  envelopeId?: string;
  envelopeDocuments?: EnvelopeDocument[];
}

/**
 * `#/definitions/envelopeTemplate` (GET …/templates/{templateId}). v2 may
 * nest the id and name in envelopeTemplateDefinition; v2.1 has them only at
 * the top.
 */
export interface EnvelopeTemplate {
  templateId?: string;
  name?: string;
  description?: string;
  emailSubject?: string;
  emailBlurb?: string;
  /** When it was last changed (ISO 8601). */
  lastModified?: string;
  created?: string;
  /** v2 only. */
  envelopeTemplateDefinition?: {
    templateId?: string;
    name?: string;
    description?: string;
    lastModified?: string;
    created?: string;
  };
  recipients?: EnvelopeRecipients;
  documents?: EnvelopeDocument[];
  customFields?: { textCustomFields?: TextCustomField[] };
}

/**
 * A template definition to create or update (Templates_PostTemplates,
 * Templates_PutTemplate: `#/definitions/envelopeTemplate`), v2.1's shape:
 * name and description at the top.
 */
export interface TemplateDefinition {
  name: string;
  description?: string;
  emailSubject?: string;
  emailBlurb?: string;
  documents: DocumentDefinition[];
  recipients: EnvelopeRecipients;
  customFields: { textCustomFields: TextCustomField[] };
}

/** `#/definitions/envelopeTemplateResults` (GET …/templates): one page of the listing. */
export interface EnvelopeTemplateResults {
  resultSetSize?: string;
  startPosition?: string;
  endPosition?: string;
  totalSetSize?: string;
  envelopeTemplates?: EnvelopeTemplate[];
}
