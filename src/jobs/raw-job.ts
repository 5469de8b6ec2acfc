import type { RecipientCollection, TabCollection } from '../envelope/index.js';
import type { AccountAddress, AccountInitialUser, ResolvedEventNotification } from './model.js';

/**
 * The shape of a job file once it has passed schemas/job.schema.json: what
 * the YAML says, before references are substituted and ids numbered. Kept
 * by hand beside schemas/job.schema.json: change both together.
 */
export interface RawJobFile {
  version: 1;
  job: string;
  description?: string;
  defaults?: RawEnvelopeDefaults;
  envelopes?: RawEnvelope[];
  templates?: RawTemplate[];
  accounts?: RawAccount[];
  /** A DocuSign organisation's users, kept once for its accounts. */
  organization?: RawOrganization;
}

/** `organization:` of a job file. */
export interface RawOrganization {
  id: string;
  users?: RawOrganizationUser[];
  /** A CSV file of more users, relative to the job file. */
  usersCsv?: string;
  bulkImportAbove?: number;
}

/** A user of the organisation, with the accounts it belongs to. */
export interface RawOrganizationUser {
  email: string;
  userName?: string;
  firstName?: string;
  lastName?: string;
  accounts: Array<{ account: string; permissionProfile?: string; groups?: string[] }>;
}

/**
 * A template kept as code: its documents and roles, as an envelope's
 * (resolved by the same code), plus what only a template has.
 */
export interface RawTemplate {
  key: string;
  state?: 'present' | 'absent';
  templateId?: string;
  name: string;
  description?: string;
  emailSubject?: string;
  emailBlurb?: string;
  documents?: RawDocument[];
  /** Object form only: each recipient a role (`roleName`), its person optional. */
  recipients?: RawRecipients;
}

export interface RawEnvelopeDefaults {
  emailSubject?: string;
  emailBlurb?: string;
  /** DocuSign's brandId: the account's brand the envelope is sent with (its signing page and messages). */
  brandId?: string;
  /** A brand kept as code, by brandName: resolved to its brandId in the sending account by the run. */
  brand?: string;
  /** `sent`, `created`, `voided`, or in a forEach envelope a `${row.*}` reference to a cell holding one. */
  status?: 'sent' | 'created' | 'voided' | (string & {});
  voidedReason?: string;
  returnUrl?: string;
  eventNotification?: ResolvedEventNotification;
  notification?: RawNotification;
  customFields?: Array<{ name: string; value: string }>;
}

/** DocuSign's `notification` object as a job file writes it (numbers and booleans, not DocuSign's strings). */
export interface RawNotification {
  reminders?: { reminderEnabled?: boolean; reminderDelay?: number; reminderFrequency?: number };
  expirations?: { expireEnabled?: boolean; expireAfter?: number; expireWarn?: number };
}

export interface RawEnvelope extends RawEnvelopeDefaults {
  key: string;
  forEach?: { csv?: string; items?: Array<Record<string, string | number | boolean>> };
  /** Send the rows through Bulk Send (src/runner/bulk-send/). */
  bulkSend?: boolean;
  documents?: RawDocument[];
  recipients?: RawRecipients;
  templateId?: string;
  /** The key of a template of the same job file (instead of templateId). */
  template?: string;
  /** Several templates (keys of this file's or stored ids), compiled to DocuSign's compositeTemplates. */
  templates?: string[];
  templateRoles?: RawRole[];
}

export interface RawDocument {
  name?: string;
  documentId?: number;
  file: string;
  /** A DOCX with DocuSign's merge fields: the value of each (Document Generation). */
  docGenFormFields?: RawDocGenFields;
}

/** `docGenFormFields` of a document: a merge field's name to its value, or to the field with its type, format or table rows. */
export type RawDocGenFields = Record<string, string | number | RawDocGenField>;

/** A merge field written out: DocuSign's `DocGenFormField` with its `rowValues` as a list of rows (column name to value). */
export interface RawDocGenField {
  value?: string | number;
  type?: 'TextBox' | 'Date' | 'Number' | 'TableRow';
  format?: { expression?: string; locale?: string };
  rowValues?: Array<Record<string, string | number>>;
}

/**
 * An envelope's `recipients`: signrun's list form (signers, the catalogue's
 * shorthandRecipientKind) or DocuSign's object form, one list per recipient
 * collection (src/envelope/recipient-kinds.ts). Read both with
 * `writtenRecipients`.
 */
export type RawRecipients = RawSigner[] | { [C in RecipientCollection]?: RawRecipient[] };

/** A recipient of any kind, with the fields of every kind (the schema allows each kind its own). */
export interface RawRecipient {
  /** A template's recipient: the role it is (required there, by the schema). */
  roleName?: string;
  /** Absent for an in-person signer (hostName and signerName name the people). */
  name?: string;
  email?: string;
  recipientId?: number;
  clientUserId?: string;
  routingOrder?: number;
  supportedLanguage?: string;
  emailSubject?: string;
  emailBody?: string;
  note?: string;
  /** `${env.NAME}` only: a secret. */
  accessCode?: string;
  /** An in-person signer's host and who signs. */
  hostName?: string;
  hostEmail?: string;
  signerName?: string;
  signerEmail?: string;
  /** A witness's: the recipientId of whom they witness. */
  witnessFor?: number | string;
  tabs?: RawTabs;
}

/** A signer of the list form: a recipient with a name and an email. */
export interface RawSigner extends RawRecipient {
  name: string;
  email: string;
}

/**
 * A recipient's `tabs`: signrun's list form (sign-here tabs, the
 * catalogue's shorthandTabKind) or DocuSign's object form, one list per tab
 * collection (src/envelope/tab-kinds.ts). Read both with `writtenTabs`.
 */
export type RawTabs = RawTab[] | { [C in TabCollection]?: RawTab[] };

/** A number or a boolean of a tab: a YAML value, or DocuSign's string (`"150"`, `"true"`, `${row.*}`). */
type Scalar<T> = T | string;

/**
 * A tab as a job file writes it: placed by position or by anchor, with the
 * fields of its kind (src/envelope/tab-kinds.ts lists which kind has which;
 * schemas/job.schema.json is generated from it).
 */
export interface RawTab extends RawPlace {
  tabLabel?: string;
  value?: string | number | boolean;
  locked?: Scalar<boolean>;
  required?: Scalar<boolean>;
  width?: Scalar<number>;
  height?: Scalar<number>;
  font?: string;
  fontSize?: string;
  bold?: Scalar<boolean>;
  tooltip?: string;
  optional?: Scalar<boolean>;
  scaleValue?: Scalar<number>;
  maxLength?: Scalar<number>;
  validationPattern?: string;
  validationMessage?: string;
  shared?: Scalar<boolean>;
  selected?: Scalar<boolean>;
  listItems?: RawListItem[];
  groupName?: string;
  radios?: RawRadio[];
  formula?: string;
  roundDecimalPlaces?: string;
  buttonText?: string;
  declineReason?: string;
  useDash4?: Scalar<boolean>;
}

/** Where a tab (or a radio) goes: by position or by anchor. */
export interface RawPlace {
  documentId?: Scalar<number>;
  pageNumber?: Scalar<number>;
  xPosition?: Scalar<number>;
  yPosition?: Scalar<number>;
  anchorString?: string;
  anchorXOffset?: Scalar<number>;
  anchorYOffset?: Scalar<number>;
  anchorUnits?: string;
  anchorIgnoreIfNotPresent?: Scalar<boolean>;
  anchorCaseSensitive?: Scalar<boolean>;
  anchorMatchWholeWord?: Scalar<boolean>;
}

/** An option of a list tab. */
export interface RawListItem {
  text: string;
  value?: string;
  selected?: Scalar<boolean>;
}

/** A radio of a radio group: its place (on the group's document), value, and state. */
export interface RawRadio extends Omit<RawPlace, 'documentId'> {
  value: string;
  selected?: Scalar<boolean>;
  locked?: Scalar<boolean>;
  required?: Scalar<boolean>;
  font?: string;
  fontSize?: string;
  bold?: Scalar<boolean>;
}

export interface RawRole {
  roleName: string;
  name: string;
  email: string;
  clientUserId?: string;
  routingOrder?: number;
  /** The object form only: fills the template's tabs by tabLabel (or adds placed ones). */
  tabs?: RawTabs;
}

export interface RawAccount {
  key: string;
  state?: 'present' | 'absent';
  accountName: string;
  accountId?: string;
  userId?: string;
  /** Provisioned through DocuSign's Admin API, in this organisation. */
  organizationId?: string;
  /** An account entry's key, or an accountId of the organisation, to clone. */
  cloneOf?: string;
  countryCode?: string;
  admin?: { email: string; firstName?: string; lastName?: string; locale?: string };
  /** DocuSign's accountSettingsInformation names. */
  settings?: Record<string, string | boolean>;
  initialUser?: AccountInitialUser<string>;
  planInformation?: { planId: string };
  addressInformation?: AccountAddress;
  // What the entry keeps inside the account (permissionProfiles, groups, users, brands, connect …) is
  // declared by each kind's job side, beside it (src/jobs/account-entries/), augmenting this interface.
  /** Keys of this job file's `templates:` installed in the account. */
  templates?: string[];
}

/** A brand of an account entry (DocuSign's #/definitions/brand, logos as files). */
export interface RawBrand {
  brandName: string;
  brandCompany?: string;
  colors?: Array<{ name: string; value: string }>;
  logos?: Partial<Record<'primary' | 'secondary' | 'email', string>>;
  emailContent?: Array<{ emailContentType: string; content: string; emailToLink?: string; linkText?: string }>;
  isSendingDefault?: boolean | string;
  isSigningDefault?: boolean | string;
  state?: 'present' | 'absent';
}

/** A Connect configuration of an account entry (DocuSign's #/definitions/connectCustomConfiguration). */
export interface RawConnect {
  name: string;
  urlToPublishTo: string;
  userName?: string;
  /** Only ever `${env.NAME}` (check-references.ts). */
  password?: string;
  eventData?: { version?: string; format?: string; includeData?: string[] };
  events?: string[];
  envelopeEvents?: string[];
  recipientEvents?: string[];
  userIds?: string[];
  state?: 'present' | 'absent';
  /** The flags (`includeHMAC`, `allowEnvelopePublish` …): YAML booleans or DocuSign's strings. */
  [flag: string]: unknown;
}
