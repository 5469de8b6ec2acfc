/**
 * Wire shapes of the eSignature REST API, v2.1 and v2, named after the
 * Swagger definitions they follow (test/fixtures/docusign/esignature.rest.swagger-v2.1.json
 * and …-v2.json, `#/definitions/<name>`). Where the versions differ the
 * field says so and the client reads both. Only the fields signrun sends or
 * reads are listed; every string id stays a string, as on the wire.
 */

/** `#/definitions/errorDetails`: the body of every 4xx/5xx answer. */
export interface ErrorDetails {
  errorCode?: string;
  message?: string;
}

/** `#/definitions/loginAccount`. */
export interface LoginAccount {
  accountId: string;
  /** e.g. https://demo.docusign.net/restapi/v2/accounts/123: the {account} address of service-api.md 4.1. */
  baseUrl?: string;
  name?: string;
  isDefault?: string;
  userId?: string;
  userName?: string;
  email?: string;
}

/** `#/definitions/loginInformation` (GET /v2/login_information). */
export interface LoginInformation {
  loginAccounts?: LoginAccount[];
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

/** `#/definitions/signHere`. */
export interface SignHere {
  documentId: string;
  pageNumber: string;
  xPosition: string;
  yPosition: string;
  recipientId?: string;
}

/** `#/definitions/recipientEmailNotification`. */
export interface RecipientEmailNotification {
  emailSubject?: string;
  emailBody?: string;
  supportedLanguage?: string;
}

/** `#/definitions/signer` (in requests and in EnvelopeRecipients answers). */
export interface Signer {
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
  tabs?: { signHereTabs?: SignHere[] };
  /** When the recipient was sent, opened, signed, declined (ISO 8601), as the status-changes listing gives them. */
  sentDateTime?: string;
  deliveredDateTime?: string;
  signedDateTime?: string;
  declinedDateTime?: string;
  declinedReason?: string;
}

/** `#/definitions/templateRole`. */
export interface TemplateRole {
  roleName: string;
  name: string;
  email: string;
  clientUserId?: string;
  routingOrder?: string;
}

/** `#/definitions/document` (request side; the PDF travels base64-encoded). */
export interface DocumentDefinition {
  documentId: string;
  name: string;
  fileExtension?: string;
  documentBase64: string;
}

/** `#/definitions/envelopeDefinition` (POST /v2/accounts/{accountId}/envelopes). */
/** Swagger #/definitions/notification: reminders and expiration, every value a string. */
export interface Notification {
  useAccountDefaults?: string;
  reminders?: { reminderEnabled?: string; reminderDelay?: string; reminderFrequency?: string };
  expirations?: { expireEnabled?: string; expireAfter?: string; expireWarn?: string };
}

export interface EnvelopeDefinition {
  emailSubject: string;
  emailBlurb?: string;
  status: 'sent' | 'created';
  documents?: DocumentDefinition[];
  recipients?: { signers: Signer[] };
  templateId?: string;
  templateRoles?: TemplateRole[];
  eventNotification?: { url: string };
  notification?: Notification;
  customFields?: CustomFields;
  /** Lets a client find an envelope whose creation answer was lost. */
  transactionId?: string;
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

/** `#/definitions/EnvelopeRecipients` (GET …/envelopes/{envelopeId}/recipients). */
export interface EnvelopeRecipients {
  signers?: Signer[];
  recipientCount?: string;
  /** The routing order whose recipients can act now. */
  currentRoutingOrder?: string;
}

/** `#/definitions/recipientViewRequest` (POST …/views/recipient). */
export interface RecipientViewRequest {
  returnUrl: string;
  authenticationMethod: string;
  clientUserId: string;
  email?: string;
  userName?: string;
  recipientId?: string;
  userId?: string;
}

/** `#/definitions/EnvelopeViews` / `viewUrl`. */
export interface ViewUrl {
  url: string;
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
  /** v2 only. */
  envelopeTemplateDefinition?: { templateId?: string; name?: string };
  recipients?: { signers?: Signer[] };
}

/** `#/definitions/accountAddress` (subset used by newAccountDefinition). */
export type AccountAddress = Partial<
  Record<'address1' | 'address2' | 'city' | 'country' | 'fax' | 'phone' | 'postalCode' | 'state', string>
>;

/**
 * `#/definitions/newAccountDefinition` (POST /v2/accounts), shaped as
 * service-api.md 4.3 shows (v2); the client sends v2.1 its shape
 * (newAccountDefinitionV21).
 */
export interface NewAccountDefinition {
  accountName: string;
  accountSettings: unknown[];
  addressInformation: AccountAddress;
  creditCardInformation: null;
  distributorCode: string;
  distributorPassword: string;
  initialUser: {
    email: string;
    firstName: string;
    lastName: string;
    middleName: string;
    password: string;
    suffixName: string;
    title: string;
    userName: string;
    userSettings: unknown[];
  };
  planInformation: { planId: string };
  referralInformation: null;
  socialAccountInformation: null;
}

/** `#/definitions/newAccountSummary` (201 of account creation). */
export interface NewAccountSummary {
  accountId: string;
  userId: string;
  accountIdGuid?: string;
  accountName?: string;
  baseUrl?: string;
}

/** `#/definitions/accountInformation` (GET /v2/accounts/{accountId}), fields signrun reads. */
export interface AccountInformation {
  accountIdGuid?: string;
  accountName?: string;
  accountSettings?: unknown;
  [field: string]: unknown;
}
