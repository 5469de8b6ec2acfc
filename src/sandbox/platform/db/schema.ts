/**
 * The sandbox's SQLite schema, version 10 (3: templates made through the API —
 * description, owner, last change, deletion; template recipients of every kind;
 * 4: a template's custom fields; 5: users managed through the API — names,
 * permission profile, closing — with permission profiles and groups; 6: Bulk
 * Send — lists, batches and the copies of each batch; 7: brands and their
 * logos, the brand an envelope was sent with, Connect configurations, shared
 * access (authorizations), envelopes in the recycle bin, sender and console
 * views, conditional routing's placeholders; 8: envelopes' workflows —
 * scheduled sending, delayed routing, pauses — and document visibility —
 * 9: the scopes of access tokens, DocuSign's Admin API (admin/admin-schema.ts) —
 * 6 to 9 whole tables only, so
 * older files gain them through `CREATE TABLE IF NOT EXISTS`; 10: an envelope's
 * account and status change time on its custom fields, for the listing's index). Applied by `openDatabase` when the
 * file is new, followed by the tables the API groups keep of their own (the account server's:
 * oauth/oauth-schema.ts; the Admin API's: admin/admin-schema.ts), which services.ts hands it, so that
 * the platform imports no API group. Ids are strings (GUIDs) as on DocuSign's wire; times are epoch
 * milliseconds; document bytes live in the blob store, referenced by sha256.
 * A file of an older version is brought up to date by `schemaMigrations`;
 * the indexes and triggers on columns a migration may add are in `schemaIndexes`.
 */
export const schemaVersion = 10;

export const schemaSql = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS integrator_keys (key TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan_id TEXT NOT NULL,
  distributor_code TEXT,
  distributor_password_hash TEXT,
  parent_account_id TEXT,
  status TEXT NOT NULL,            -- active | pending (awaiting activation) | deleted
  created_at INTEGER NOT NULL,
  details_json TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  user_name TEXT NOT NULL,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  activated INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  permission_profile_id TEXT,              -- null: the account's "Account Administrator" (an account's initial user)
  closed_at INTEGER,                       -- DELETE …/users closes a user (userStatus closed); never removed
  details_json TEXT NOT NULL DEFAULT '{}'  -- firstName, lastName, jobTitle, company …: what the API was told
);
CREATE INDEX IF NOT EXISTS users_by_name ON users(user_name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS users_by_email ON users(email COLLATE NOCASE);
-- Permission profiles and groups of an account (routes/permission-profiles.ts, routes/groups.ts). Ids are
-- DocuSign's kind: small numbers as strings. Names are unique per account, case-insensitive, as on DocuSign.
CREATE TABLE IF NOT EXISTS permission_profiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  settings_json TEXT NOT NULL,
  built_in INTEGER NOT NULL DEFAULT 0,     -- one DocuSign gives every account: never deleted
  modified_at INTEGER NOT NULL,
  modified_by TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS permission_profiles_by_name ON permission_profiles(account_id, name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS user_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  group_type TEXT NOT NULL,                -- adminGroup | everyoneGroup | customGroup
  permission_profile_id TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS user_groups_by_name ON user_groups(account_id, name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS group_members (
  group_id INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  PRIMARY KEY (group_id, user_id)
);
CREATE TABLE IF NOT EXISTS activations (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE IF NOT EXISTS access_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  integrator_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  scope TEXT                               -- the OAuth scopes granted (space-separated); null: a legacy token
);
CREATE TABLE IF NOT EXISTS templates (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  email_subject TEXT,
  email_blurb TEXT,
  created_at INTEGER NOT NULL,
  description TEXT,
  owner_user_id TEXT,                -- who created it (null for a seed's)
  last_modified_at INTEGER,          -- null: never changed since created_at
  deleted_at INTEGER,                -- moved to the recycle bin: gone from the API, kept for the envelopes made from it
  custom_fields_json TEXT NOT NULL DEFAULT '[]'  -- textCustomFields: [{ name, value, show }]
);
CREATE INDEX IF NOT EXISTS templates_by_account_name ON templates(account_id, name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS template_documents (
  template_id TEXT NOT NULL,
  document_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  pages INTEGER,
  PRIMARY KEY (template_id, document_id)
);
CREATE TABLE IF NOT EXISTS template_roles (
  template_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  recipient_id TEXT NOT NULL,
  role_name TEXT NOT NULL,
  routing_order TEXT NOT NULL,
  tabs_json TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'signer',     -- the recipient kind (src/envelope/recipient-kinds.ts)
  details_json TEXT NOT NULL DEFAULT '{}', -- a fixed recipient's name, email, host …: what the template says of them
  access_code_hash TEXT,                   -- scrypt of the role's access code; the code itself is never kept
  PRIMARY KEY (template_id, position)
);
CREATE TABLE IF NOT EXISTS envelopes (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  sender_user_id TEXT NOT NULL,
  status TEXT NOT NULL,
  email_subject TEXT NOT NULL,
  email_blurb TEXT NOT NULL,
  template_id TEXT,
  transaction_id TEXT,
  event_notification_json TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  delivered_at INTEGER,
  completed_at INTEGER,
  declined_at INTEGER,
  voided_at INTEGER,
  voided_reason TEXT,
  status_changed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS envelopes_by_account_time ON envelopes(account_id, status_changed_at);
CREATE INDEX IF NOT EXISTS envelopes_by_transaction ON envelopes(account_id, transaction_id);
CREATE TABLE IF NOT EXISTS envelope_custom_fields (
  envelope_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL,               -- text | list
  field_id TEXT NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  show TEXT NOT NULL,
  required TEXT NOT NULL,
  list_items_json TEXT,
  account_id TEXT,                  -- the envelope's, copied: the listing's index (schemaIndexes) finds a field's
  status_changed_at INTEGER,        -- envelopes of one account changed since a date without reading the others
  PRIMARY KEY (envelope_id, position)
);
CREATE TABLE IF NOT EXISTS envelope_documents (
  envelope_id TEXT NOT NULL,
  document_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  sha256 TEXT NOT NULL,            -- current version (stamped after signing)
  original_sha256 TEXT NOT NULL,   -- as uploaded; kept
  size INTEGER NOT NULL,
  pages INTEGER,
  PRIMARY KEY (envelope_id, document_id)
);
CREATE TABLE IF NOT EXISTS recipients (
  envelope_id TEXT NOT NULL,
  recipient_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  recipient_id_guid TEXT NOT NULL,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  client_user_id TEXT,
  routing_order INTEGER NOT NULL,
  role_name TEXT,
  status TEXT NOT NULL,            -- created | sent | delivered | completed | declined
  tabs_json TEXT NOT NULL,
  email_subject TEXT,
  email_body TEXT,
  supported_language TEXT,
  sent_at INTEGER,
  delivered_at INTEGER,
  signed_at INTEGER,
  declined_at INTEGER,
  declined_reason TEXT,
  kind TEXT NOT NULL DEFAULT 'signer',   -- the recipient kind (src/envelope/recipient-kinds.ts)
  details_json TEXT NOT NULL DEFAULT '{}', -- the kind's own fields: host, signer name, whom a witness signs for
  access_code_hash TEXT,                 -- scrypt of the access code (auth/password-hash.ts); the code itself is never kept
  access_code_failures INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (envelope_id, recipient_id)
);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  envelope_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  recipient_id TEXT,
  type TEXT NOT NULL,
  at INTEGER NOT NULL,
  ip TEXT,
  user_agent TEXT,
  details_json TEXT
);
CREATE INDEX IF NOT EXISTS events_by_envelope ON events(envelope_id, id);
CREATE TABLE IF NOT EXISTS view_tokens (
  token_hash TEXT PRIMARY KEY,
  envelope_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  recipient_id TEXT NOT NULL,
  return_url TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
-- A signing session: what the signing page's requests carry once the single-use view token is spent
-- (signing/signing-sessions.ts). The browser holds the session secret; only its sha256 is kept.
CREATE TABLE IF NOT EXISTS signing_sessions (
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL,
  csrf_token TEXT NOT NULL,
  envelope_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  recipient_id TEXT NOT NULL,
  return_url TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  finished_at INTEGER,
  access_code_passed_at INTEGER
);
-- Origins allowed to frame a signing page (signing/frame-ancestors.ts). Keys: t:<sha256 of the view token>,
-- s:<session id>.
CREATE TABLE IF NOT EXISTS frame_ancestors (
  key TEXT PRIMARY KEY,
  origins_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  to_address TEXT NOT NULL,
  to_name TEXT,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  links_json TEXT NOT NULL,
  account_id TEXT,
  envelope_id TEXT,
  recipient_id TEXT
);
-- Bulk Send (BulkSendV2CRUD, BulkSendV2Send, BulkSendV2Batch): a list of copies, a batch made by sending
-- one with a model (a draft envelope or a template), and each copy of a batch (bulk-send/bulk-send-worker.ts).
CREATE TABLE IF NOT EXISTS bulk_send_lists (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  copies_json TEXT NOT NULL         -- bulkCopies as the client sent them (#/definitions/bulkSendingCopy)
);
CREATE INDEX IF NOT EXISTS bulk_send_lists_by_account ON bulk_send_lists(account_id, created_at);
CREATE TABLE IF NOT EXISTS bulk_send_batches (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  list_id TEXT NOT NULL,
  model_id TEXT NOT NULL,           -- envelopeOrTemplateId
  model_kind TEXT NOT NULL,         -- envelope | template
  sender_user_id TEXT NOT NULL,
  submitted_at INTEGER NOT NULL,
  size INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS bulk_send_batches_by_account ON bulk_send_batches(account_id, submitted_at);
CREATE TABLE IF NOT EXISTS bulk_send_copies (
  batch_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  copy_json TEXT NOT NULL,
  status TEXT NOT NULL,             -- queued | sent | failed
  envelope_id TEXT,
  error TEXT,
  at INTEGER,
  PRIMARY KEY (batch_id, position)
);
CREATE INDEX IF NOT EXISTS bulk_send_copies_queued ON bulk_send_copies(status, batch_id, position);
-- Brands (routes/brands.ts): DocuSign's brand, its lists kept as the client sent them (JSON).
CREATE TABLE IF NOT EXISTS brands (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  company TEXT,
  is_sending_default INTEGER NOT NULL DEFAULT 0,
  is_signing_default INTEGER NOT NULL DEFAULT 0,
  is_overriding_company_name INTEGER NOT NULL DEFAULT 0,
  default_language TEXT,
  languages_json TEXT NOT NULL DEFAULT '[]',
  colors_json TEXT NOT NULL DEFAULT '[]',       -- [{ name, value }], values #rrggbb
  email_content_json TEXT NOT NULL DEFAULT '[]',
  links_json TEXT NOT NULL DEFAULT '[]',
  landing_pages_json TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS brands_by_account ON brands(account_id);
CREATE TABLE IF NOT EXISTS brand_logos (
  brand_id TEXT NOT NULL,
  logo_type TEXT NOT NULL,                      -- primary | secondary | email
  content_type TEXT NOT NULL,
  sha256 TEXT NOT NULL,                         -- bytes in the blob store
  PRIMARY KEY (brand_id, logo_type)
);
-- The brand an envelope was created with (its brandId, or the account's sending default then).
CREATE TABLE IF NOT EXISTS envelope_brands (
  envelope_id TEXT PRIMARY KEY,
  brand_id TEXT NOT NULL
);
-- Connect configurations of an account (connect/connect-configurations.ts); the HMAC flag only, never a key.
CREATE TABLE IF NOT EXISTS connect_configurations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  config_json TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
-- Shared access: a principal user lets an agent user act for them (auth/user-authorizations.ts).
CREATE TABLE IF NOT EXISTS user_authorizations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  principal_user_id TEXT NOT NULL,
  agent_user_id TEXT NOT NULL,
  permission TEXT NOT NULL,                     -- send | manage | sign | edit
  start_at INTEGER NOT NULL,
  end_at INTEGER,
  created_at INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  modified_at INTEGER NOT NULL,
  modified_by TEXT NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS user_authorizations_by_agent ON user_authorizations(agent_user_id);
-- Envelopes moved between folders (routes/folders.ts); an envelope without a row is in its natural folder.
CREATE TABLE IF NOT EXISTS envelope_folders (
  envelope_id TEXT PRIMARY KEY,
  folder TEXT NOT NULL,                         -- recyclebin | sentitems | draft | inbox
  moved_at INTEGER NOT NULL
);
-- Placeholder recipients of conditional routing and their rules (conditional-routing.ts), until their turn resolves them.
CREATE TABLE IF NOT EXISTS envelope_conditional_recipients (
  envelope_id TEXT NOT NULL,
  recipient_id TEXT NOT NULL,
  rule_json TEXT NOT NULL,
  PRIMARY KEY (envelope_id, recipient_id)
);
-- An envelope's workflow (envelope-workflow.ts): scheduled sending, delayed routing, pauses; resume_at is
-- when a started hold ends (null when nothing waits for a time).
CREATE TABLE IF NOT EXISTS envelope_workflows (
  envelope_id TEXT PRIMARY KEY,
  workflow_json TEXT NOT NULL,
  resume_at INTEGER
);
CREATE INDEX IF NOT EXISTS envelope_workflows_by_resume ON envelope_workflows(resume_at);
-- Envelopes sent with enforceSignerVisibility (document-visibility.ts); the recipients' excludedDocuments are in their details_json.
CREATE TABLE IF NOT EXISTS envelope_visibility (
  envelope_id TEXT PRIMARY KEY,
  enforce_signer_visibility INTEGER NOT NULL
);
-- DocuSign's Document Generation (docgen/docgen-store.ts): the DOCX behind the PDF the sandbox keeps of a DocGen
-- document not generated yet (by that PDF's sha256, so a template's document carries it into its envelopes), and
-- each envelope's DocGen documents: the GUID DocuSign gives them, the values set (null until PUT docGenFormFields)
-- and whether the letter was generated from them.
CREATE TABLE IF NOT EXISTS docgen_sources (
  pdf_sha256 TEXT PRIMARY KEY,
  docx_sha256 TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS envelope_docgen_documents (
  envelope_id TEXT NOT NULL,
  document_id TEXT NOT NULL,
  document_id_guid TEXT NOT NULL,
  docx_sha256 TEXT NOT NULL,
  fields_json TEXT,
  generated INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (envelope_id, document_id)
);
-- Sender and console views (console/management-views.ts): a single-use token, then a session held by
-- a cookie. Token and session secret are kept as sha256 only.
CREATE TABLE IF NOT EXISTS management_views (
  session_id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,                           -- sender | console
  account_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  envelope_id TEXT,                             -- the draft (sender), the envelope to show first (console)
  return_url TEXT NOT NULL,
  token_expires_at INTEGER NOT NULL,
  used_at INTEGER,
  secret_hash TEXT,
  csrf_token TEXT,
  expires_at INTEGER,
  finished_at INTEGER
);`;

/**
 * What brings a file of an older schema version up to `schemaVersion`: the
 * columns each version added, with defaults that read old rows as they
 * were meant (every recipient of a version-1 file is a signer without an
 * access code). `CREATE TABLE IF NOT EXISTS` adds whole tables; columns need this.
 */
export const schemaMigrations: ReadonlyArray<{
  table: string;
  column: string;
  definition: string;
  /** Run once, when the column is added: fills it for the rows the file already holds. */
  fill?: string;
}> = [
  { table: 'recipients', column: 'kind', definition: "TEXT NOT NULL DEFAULT 'signer'" },
  { table: 'recipients', column: 'details_json', definition: "TEXT NOT NULL DEFAULT '{}'" },
  { table: 'recipients', column: 'access_code_hash', definition: 'TEXT' },
  { table: 'recipients', column: 'access_code_failures', definition: 'INTEGER NOT NULL DEFAULT 0' },
  { table: 'signing_sessions', column: 'access_code_passed_at', definition: 'INTEGER' },
  // Version 3: templates made, changed and deleted through the API; their recipients of every kind.
  { table: 'templates', column: 'description', definition: 'TEXT' },
  { table: 'templates', column: 'owner_user_id', definition: 'TEXT' },
  { table: 'templates', column: 'last_modified_at', definition: 'INTEGER' },
  { table: 'templates', column: 'deleted_at', definition: 'INTEGER' },
  { table: 'template_roles', column: 'kind', definition: "TEXT NOT NULL DEFAULT 'signer'" },
  { table: 'template_roles', column: 'details_json', definition: "TEXT NOT NULL DEFAULT '{}'" },
  { table: 'template_roles', column: 'access_code_hash', definition: 'TEXT' },
  // Version 4: a template's custom fields (what templates as code find their templates by).
  { table: 'templates', column: 'custom_fields_json', definition: "TEXT NOT NULL DEFAULT '[]'" },
  // Version 5: users managed through the API (their profile, their closing, their names); the new tables come whole.
  { table: 'users', column: 'permission_profile_id', definition: 'TEXT' },
  { table: 'users', column: 'closed_at', definition: 'INTEGER' },
  { table: 'users', column: 'details_json', definition: "TEXT NOT NULL DEFAULT '{}'" },
  // Version 9: the scopes of an access token (the Admin API checks them); the Admin API's tables come whole.
  { table: 'access_tokens', column: 'scope', definition: 'TEXT' },
  // Version 10: the envelope's account and status change time on each of its custom fields (schemaIndexes).
  {
    table: 'envelope_custom_fields',
    column: 'account_id',
    definition: 'TEXT',
    fill: `UPDATE envelope_custom_fields SET account_id =
             (SELECT e.account_id FROM envelopes e WHERE e.id = envelope_custom_fields.envelope_id)`,
  },
  {
    table: 'envelope_custom_fields',
    column: 'status_changed_at',
    definition: 'INTEGER',
    fill: `UPDATE envelope_custom_fields SET status_changed_at =
             (SELECT e.status_changed_at FROM envelopes e WHERE e.id = envelope_custom_fields.envelope_id)`,
  },
];

/**
 * Indexes and triggers on columns a migration may add, applied after
 * `schemaMigrations` (in `schemaSql` they would fail on an older file).
 *
 * custom_fields_by_value_time serves the status-changes listing with a
 * custom-field filter (envelope-listing-sql.ts): the runner lists a job's
 * envelopes (one value shared by all of them) changed since a recent
 * from_date, and an index on (name, value) alone read every envelope of the
 * job at each call, so a run's listings grew as the square of its envelopes
 * (issue 37: 100,000 envelopes slowed from ~120 to ~40 a second). With the
 * account and the time after the value the index walks only the matches; the
 * envelope id last makes it covering. It replaces custom_fields_by_value, a
 * prefix of it. The trigger keeps the fields' time in step with the
 * envelope's whatever writes it.
 */
export const schemaIndexes = `
DROP INDEX IF EXISTS custom_fields_by_value;
CREATE INDEX IF NOT EXISTS custom_fields_by_value_time
  ON envelope_custom_fields(name, value, account_id, status_changed_at, envelope_id);
CREATE TRIGGER IF NOT EXISTS custom_fields_follow_status_time
  AFTER UPDATE OF status_changed_at ON envelopes
  WHEN NEW.status_changed_at IS NOT OLD.status_changed_at
BEGIN
  UPDATE envelope_custom_fields SET status_changed_at = NEW.status_changed_at WHERE envelope_id = NEW.id;
END;`;
