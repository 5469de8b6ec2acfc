/**
 * The resolved job model: what `jobs/` hands to `runner/` after loading,
 * validation and expansion. Everything here is already checked — files exist
 * and are PDFs, `${...}` references are substituted, ids are numbered — so the
 * runner never re-validates and never sees YAML.
 *
 * Field names are DocuSign's (service-api.md section 2); ids are strings, as
 * on the wire. Values resolved from `${env.*}` that are secrets (passwords)
 * are marked with `Secret` so that reporters can tell them apart.
 */
import type { ConnectEventData, RecipientKindName, TabAnchor, TabKindName, TabPosition } from '../envelope/index.js';
import type { LogoContentType } from '../envelope/brand-logo.js';

export type { TabAnchor, TabPosition };
import type { ErrorCode } from '../errors/catalogue.js';

/** The lists of a job file whose items are resolved as envelopes are: envelopes, and templates (documents and roles). */
export type ItemCollection = 'envelopes' | 'templates';

/** Where something is declared in a job file. 1-based line and column. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

// Secret lives at the bottom layer (src/secret.ts) so the client can use it without knowing job files.
import type { Secret } from '../secret.js';
export type { Secret };

export interface ResolvedDocument {
  /** "1", "2", … in order unless the job file gives one. */
  documentId: string;
  /** File name shown to signers, e.g. `offer.pdf`. */
  name: string;
  /**
   * Absolute path of the file; checked to exist, to be inside the job's folder, and to be a PDF
   * or a DOCX, HTML or TXT document (by its extension) that converts.
   */
  path: string;
  /**
   * The file's kind as the service is told it (`fileExtension`): `pdf`, or the file's own
   * extension when it is one DocuSign converts (`docx`, `html`, `htm`, `txt`).
   */
  fileExtension: string;
  /** Size in bytes at validation time. */
  size: number;
  /** Number of pages, read from the PDF (or from the rendition of a converted document) at validation time. */
  pageCount: number;
  /** sha256 (hex) of the file (as sent, not its rendition) at validation time; part of the envelope digest. */
  sha256: string;
  /**
   * A DOCX with DocuSign's merge fields (Document Generation): the value of
   * each, `${...}` substituted, checked against the fields the DOCX has. The
   * document is then sent with `isDocGenDocument`.
   */
  docGenFormFields?: ResolvedDocGenField[];
}

/**
 * A merge field's value (DocuSign's `DocGenFormField`), as DocuSign's
 * strings, with where the job file writes it.
 */
export interface ResolvedDocGenField {
  name: string;
  /** Absent for a table row. */
  value?: string;
  /** `TextBox`, `Date`, `Number` or `TableRow` when the job file says. */
  type?: string;
  format?: { expression?: string; locale?: string };
  /** A table row's rows: each the row's fields by name. */
  rowValues?: Array<Record<string, string>>;
  /** From the document: `['docGenFormFields', name]` (a plain value) or `['docGenFormFields', name, 'value']`. */
  written: ReadonlyArray<string | number>;
}

/**
 * A tab of a recipient: its kind (src/envelope/tab-kinds.ts says what the
 * kind is), where it goes, the value given before sending, if any, and the
 * other fields of its kind the job file gives, as DocuSign's strings.
 */
export interface ResolvedTab {
  kind: TabKindName;
  /**
   * By position or by anchor. A radio group's place is its document's (its
   * radios have their own); absent only for a template role's tab that fills
   * the template's tab of its `tabLabel`.
   */
  place?: TabPosition | TabAnchor;
  value?: string;
  /** The kind's fields given (catalogue `fields`) other than `value`, `listItems` and `radios`: `tabLabel`, `locked`, `maxLength`, … */
  fields?: Record<string, string>;
  /** A list tab's options. */
  listItems?: ResolvedListItem[];
  /** A radio group's radios. */
  radios?: ResolvedRadio[];
  /** Where the job file writes it, from the recipient: `['tabs', 0]` (list form) or `['tabs', <collection>, 0]`. */
  written: ReadonlyArray<string | number>;
}

/** An option of a list tab (`#/definitions/listItem`), as DocuSign's strings. */
export interface ResolvedListItem {
  text: string;
  value?: string;
  selected?: string;
}

/** A radio of a radio group (`#/definitions/radio`): its place (position on the group's document, or anchor), value, other fields. */
export interface ResolvedRadio {
  place: TabPosition | TabAnchor;
  value: string;
  /** `selected`, `locked`, `required`, `font`, `fontSize`, `bold`, as given. */
  fields?: Record<string, string>;
}

/**
 * A recipient of an envelope: of a kind (src/envelope/recipient-kinds.ts),
 * numbered by `recipientId` when the envelope is built from documents
 * (service-api.md 2.3), named by `roleName` when it fills a template's role
 * (2.5).
 */
export interface ResolvedRecipient {
  kind: RecipientKindName;
  /** "1", "2", … in order unless given; absent for a template role (the service numbers it). */
  recipientId?: string;
  /** The template role filled; absent for a recipient of documents. */
  roleName?: string;
  name: string;
  email: string;
  /** Present for embedded recipients. */
  clientUserId?: string;
  /** Defaults to "1" on the service side when absent. */
  routingOrder?: string;
  /** Interface language: `en`, `fr`, … */
  supportedLanguage?: string;
  /** Per-recipient message (DocuSign's emailNotification on the wire). */
  emailSubject?: string;
  emailBody?: string;
  /** Empty: the recipient places the signature in the service's own interface (or the template's tabs apply). */
  tabs: ResolvedTab[];
  /** Where the job file writes it: `['recipients', i]`, `['recipients', '<collection>', i]`, `['templateRoles', i]`. */
  written: ReadonlyArray<string | number>;
  /** A note shown to the recipient (DocuSign's `note`). */
  note?: string;
  /** The code the recipient must enter (from `${env.*}` only): never written anywhere, sent only to the service. */
  accessCode?: Secret;
  /** An in-person signer's host, who opens the signing session (`name` is then the signer's, `signerName`). */
  host?: { name: string; email: string };
  /** An in-person signer's own email, when given (`email` is then the host's, where messages go). */
  signerEmail?: string;
  /** A witness's: the recipientId of the recipient they witness. */
  witnessFor?: string;
}

/** True for a tab placed by position (not by anchor). */
export function isPositioned(place: ResolvedTab['place']): place is TabPosition {
  return place !== undefined && 'xPosition' in place;
}

/** How a recipient is named to the service: its recipientId, or its template role. */
export function recipientRefOf(r: ResolvedRecipient): string {
  return r.recipientId ?? r.roleName ?? '';
}

/** An envelope's own webhook, in DocuSign's names (its `eventNotification`); `url` with its references resolved. */
export interface ResolvedEventNotification {
  url: string;
  envelopeEvents?: Array<{ envelopeEventStatusCode: string }>;
  recipientEvents?: Array<{ recipientEventStatusCode: string }>;
  eventData?: ConnectEventData;
  requireAcknowledgment?: boolean;
  includeHMAC?: boolean;
}

export interface ResolvedEnvelope {
  /** The job name; (job, key) identifies the envelope forever. */
  job: string;
  key: string;
  /**
   * Where the envelope (or its forEach template) is declared. One object is
   * shared by every row of a forEach pattern: read it, never change it.
   */
  source: SourcePosition;
  /** 1-based row number when produced by forEach. */
  row?: number;
  /**
   * Where that row is: its line of the CSV, or its item of `forEach.items`.
   * What changed between two runs of a row is there, not at the pattern.
   */
  rowSource?: SourcePosition;
  /**
   * `bulkSend: true` in the job file: the rows go through DocuSign's Bulk
   * Send (src/runner/bulk-send/). A way of sending, not content: not in
   * the digest.
   */
  bulkSend?: true;
  emailSubject: string;
  emailBlurb?: string;
  /** DocuSign's brandId (a GUID of a brand of the account), sent as it is; set by the run for `brandName`. */
  brandId?: string;
  /**
   * `brand:` in the job file: a brand kept as code, by brandName. The run
   * looks it up in the sending account before anything is sent and sets
   * `brandId` (runner/resources/account/account-brand-names.ts). Content: in the digest by name.
   */
  brandName?: string;
  /** Requested initial status; `voided`: void it if it was sent (issue 12), never send it. */
  status: 'sent' | 'created' | 'voided';
  /** Why, with `status: voided`. */
  voidedReason?: string;
  /** Reminders and expiration (DocuSign's `notification`), defaults applied. */
  notification?: ResolvedNotification;
  /** Where embedded signers are sent after signing. Required when any recipient has a clientUserId. */
  returnUrl?: string;
  eventNotification?: ResolvedEventNotification;
  /** The user's own text custom fields (signrun adds its identity field on top). */
  customFields?: Array<{ name: string; value: string }>;
  /**
   * `documents` (documents + recipients), `template` (templateId + templateRoles),
   * or `composite` (several templates, `templateRefs`, with templateRoles, and
   * documents and recipients added: DocuSign's compositeTemplates).
   */
  kind: 'documents' | 'template' | 'composite';
  /** A composite envelope's templates, in order: a template of the job file by key, or a stored one by id. */
  templateRefs?: TemplateRef[];
  documents: ResolvedDocument[];
  recipients: ResolvedRecipient[];
  templateId?: string;
  /**
   * The key of a template of the same job (`template: <key>`): its id is
   * known only in the account the run is against, so the run fills
   * `templateId` once the template is there.
   */
  templateKey?: string;
  /** The template's roles filled (each with its roleName, never a recipientId). */
  templateRoles: ResolvedRecipient[];
  /**
   * sha256 (hex) of the canonical envelope content, document digests
   * included: a changed envelope has a changed digest (drift detection).
   */
  digest: string;
}

/**
 * One template of a composite envelope. A template of the job file is
 * named by `key`; the run fills in its `templateId` in the account it runs
 * against, and `roleNames` (which roles it has: where each templateRoles
 * entry goes) once known.
 */
export interface TemplateRef {
  key?: string;
  templateId?: string;
  roleNames?: string[];
}

/** DocuSign's `notification` with every default applied (schemas/job.schema.json). */
export interface ResolvedNotification {
  reminders?: { reminderEnabled: boolean; reminderDelay: number; reminderFrequency: number };
  expirations?: { expireEnabled: boolean; expireAfter: number; expireWarn: number };
}

export interface ResolvedAccount {
  job: string;
  key: string;
  source: SourcePosition;
  /** present: create when missing; absent: delete when it exists. */
  state: 'present' | 'absent';
  accountName: string;
  /** Known ids of an existing account (given in the job or found in earlier outputs). */
  accountId?: string;
  userId?: string;
  /** Provisioned through DocuSign's Admin API in this organisation (created from a plan item, or cloned). */
  organization?: ResolvedAccountOrganization;
  /** DocuSign's account settings kept as code (accountSettingsInformation names), values as DocuSign's strings. */
  settings?: Record<string, string>;
  /** The users of the job's `organization:` who belong to this account, each with its profile and groups here. */
  organizationUsers?: ResolvedMembership[];
  /** Users to add beyond which they go as one bulk import (`organization.bulkImportAbove`). */
  bulkImportAbove?: number;
  /** The password always from `${env.*}`: literals are refused by validation. */
  initialUser?: AccountInitialUser<Secret>;
  planInformation?: { planId: string };
  addressInformation?: AccountAddress;
  // What the entry keeps inside the account (permissionProfiles, groups, users, brands, connect …) is
  // declared by each kind's job side, beside it (src/jobs/account-entries/), augmenting this interface.
  /**
   * Templates of the job file (`templates: [<key>, …]`) installed in the account: the very
   * definitions of the job's `templates:` (one definition, kept in each account that lists it).
   */
  templates?: ResolvedTemplate[];
}

/** An account entry's first user, as written (`password: string`) and as resolved (`password: Secret`). */
export interface AccountInitialUser<Password> {
  email: string;
  userName?: string;
  firstName?: string;
  lastName?: string;
  middleName?: string;
  suffixName?: string;
  title?: string;
  password: Password;
}

/** An account entry's `addressInformation` (DocuSign's names). */
export type AccountAddress = Partial<
  Record<'address1' | 'address2' | 'city' | 'country' | 'fax' | 'phone' | 'postalCode' | 'state', string>
>;

/** A logo of a brand entry: the file's bytes, read and checked (PNG, JPEG or GIF) at load. */
export interface ResolvedLogo {
  /** As written, relative to the job file. */
  file: string;
  contentType: LogoContentType;
  sha256: string;
  bytes: Buffer;
}

/** A brand of an account entry, found in the account by brandName. Fields left out are left as they are. */
export interface ResolvedBrand {
  brandName: string;
  brandCompany?: string;
  colors?: Array<{ name: string; value: string }>;
  logos: Partial<Record<'primary' | 'secondary' | 'email', ResolvedLogo>>;
  emailContent?: Array<Record<string, string>>;
  isSendingDefault?: boolean;
  isSigningDefault?: boolean;
  state: 'present' | 'absent';
  source: SourcePosition;
}

/**
 * A Connect configuration of an account entry, found by name: `fields` are
 * DocuSign's wire fields as they are sent (flags as "true"/"false"), without
 * the password, which is a `Secret` of its own.
 */
export interface ResolvedConnect {
  name: string;
  fields: Record<string, string | string[] | Record<string, unknown>>;
  /** The listener's basic-authentication password (always from `${env.*}`). */
  password?: Secret;
  state: 'present' | 'absent';
  source: SourcePosition;
}

/** A permission profile of an account entry: DocuSign's accountRoleSettings, every value a string. */
export interface ResolvedPermissionProfile {
  permissionProfileName: string;
  settings: Record<string, string>;
  source: SourcePosition;
}

/** A group of an account entry. */
export interface ResolvedGroup {
  groupName: string;
  permissionProfileName?: string;
  source: SourcePosition;
}

/** A user of an account entry, found in the account by email. */
export interface ResolvedAccountUser {
  email: string;
  /** Present with state: present (validation requires it). */
  userName?: string;
  /** Absent: a new user gets the account's default, an existing one keeps theirs. */
  permissionProfileName?: string;
  /** Absent: the user's groups are left as they are; present: exactly these (besides Everyone). */
  groups?: string[];
  state: 'present' | 'absent';
  source: SourcePosition;
}

/**
 * A template kept as code (`templates:`): its documents and roles resolved
 * and checked by the envelopes' code, its identity `<job>/<key>` like an
 * envelope's.
 */
export interface ResolvedTemplate {
  job: string;
  key: string;
  source: SourcePosition;
  /** Its place in the job file's `templates` (its recipients' `written` paths start there). */
  index: number;
  /** present: created when missing, updated when it differs; absent: deleted when it exists. */
  state: 'present' | 'absent';
  /** Given in the job file (an imported template): the template to manage. */
  templateId?: string;
  name: string;
  description?: string;
  emailSubject?: string;
  emailBlurb?: string;
  documents: ResolvedDocument[];
  /** Every recipient a role: `roleName` set, numbered by recipientId; name and email empty when each envelope gives them. */
  recipients: ResolvedRecipient[];
  /** sha256 (hex) of the canonical content, documents included: what signrun wrote is known by it. */
  digest: string;
}

/** How an account entry is provisioned through its organisation (DocuSign's Admin API). */
export interface ResolvedAccountOrganization {
  id: string;
  /** The account cloned: an entry of the same job (`key`) or an account of the organisation (`accountId`). */
  cloneOf?: { key: string } | { accountId: string };
  countryCode?: string;
  admin?: { email: string; firstName?: string; lastName?: string; locale?: string };
}

/** A user of the organisation (`organization.users`, `usersCsv`), with its memberships. */
export interface ResolvedOrganizationUser {
  email: string;
  userName: string;
  firstName?: string;
  lastName?: string;
  /** Each membership: an account entry's key of the job, or an accountId of the organisation. */
  accounts: Array<{ account: { key: string } | { accountId: string }; permissionProfile?: string; groups: string[] }>;
  source: SourcePosition;
  /** The CSV line, for a user read from `usersCsv`. */
  csvLine?: number;
}

/** A user of the organisation in one account entry. */
export interface ResolvedMembership {
  email: string;
  userName: string;
  firstName?: string;
  lastName?: string;
  permissionProfile?: string;
  groups: string[];
  source: SourcePosition;
  /** The line of `organization.usersCsv` it was read from. */
  csvLine?: number;
}

/** `organization:` of a job file. */
export interface ResolvedOrganization {
  id: string;
  users: ResolvedOrganizationUser[];
  /** Users to add beyond which one bulk import is sent. */
  bulkImportAbove: number;
  source: SourcePosition;
}

export interface ResolvedJob {
  /** Absolute path of the job file. */
  file: string;
  job: string;
  envelopes: ResolvedEnvelope[];
  /** Templates kept as code (absent: none). */
  templates?: ResolvedTemplate[];
  accounts: ResolvedAccount[];
  /** The organisation's users kept as code (`organization:`); absent: none. */
  organization?: ResolvedOrganization;
  /**
   * Every account entry of the file as far as where its templates are kept
   * goes (jobs/template-homes.ts), read at load when the file has templates:
   * a shard's job (`run --shard`) keeps them all though its `accounts` are
   * only the shard's. Absent (a job built in code): read from `accounts`.
   */
  templateListers?: TemplateLister[];
}

/** An account entry, as far as where the job file's templates are kept goes (jobs/template-homes.ts). */
export interface TemplateLister {
  /** The entry's key, for messages. */
  key: string;
  /** `state: present` (the default): an absent entry's account goes, nothing is kept in it. */
  present: boolean;
  /** The entry's accountId; absent: an account signrun creates, never the configured one. */
  accountId: string | undefined;
  /** The template keys it lists (`accounts[].templates`). */
  templates: readonly string[];
}

/** One finding of validation, pointing at the line in the user's file. */
export interface Diagnostic {
  code: ErrorCode;
  severity: 'error' | 'warning';
  message: string;
  /**
   * Path as the user named it (relative to the working folder when possible).
   * For a value that came from a forEach CSV row, the CSV file (line and
   * column then point at the cell); for SR_NO_JOB_FILES, the pattern given.
   */
  file: string;
  line: number;
  column: number;
  /** The field, as a dotted path (`envelopes[0].recipients[1].email`). */
  field?: string;
  /** The offending source line, for the excerpt with a caret. */
  excerpt?: string;
  hint?: string;
}

export interface LoadStats {
  files: number;
  jobs: number;
  envelopes: number;
  templates?: number;
  accounts: number;
}

/** What loading + validation + expansion returns: data, never an exit code. */
export type LoadResult =
  | { ok: true; jobs: ResolvedJob[]; warnings: Diagnostic[]; stats: LoadStats }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[]; stats: LoadStats };
