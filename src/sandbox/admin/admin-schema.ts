/**
 * Tables of DocuSign's Admin API in the sandbox (src/sandbox/admin): the
 * organisations, their accounts and administrators, their plan items, the
 * asynchronous work of account creation and cloning, account settings (the
 * one store of an account's `accountSettingsInformation`), the users'
 * product permission profiles, bulk imports and exports. Whole tables only
 * (`IF NOT EXISTS`), so a data folder made before them gets them when next
 * opened. Times are epoch milliseconds.
 */
export const adminSchemaSql = `
CREATE TABLE IF NOT EXISTS organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  default_account_id TEXT,
  created_at INTEGER NOT NULL,
  created_by TEXT
);
-- An account belongs to at most one organisation, in one asset group (the plan item it was made from).
CREATE TABLE IF NOT EXISTS organization_accounts (
  account_id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  asset_group_id TEXT NOT NULL,
  external_account_id INTEGER NOT NULL,
  added_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS organization_accounts_by_org ON organization_accounts(organization_id);
-- Who administers an organisation: a user row (of one of its accounts) and, through its email, the person.
CREATE TABLE IF NOT EXISTS organization_admins (
  organization_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
-- The organisation's plan items (OrganizationSubscriptionResponse): one asset group each.
CREATE TABLE IF NOT EXISTS organization_plan_items (
  organization_id TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  plan_id TEXT NOT NULL,
  plan_name TEXT NOT NULL,
  subscription_name TEXT NOT NULL,
  asset_group_id TEXT NOT NULL UNIQUE,
  asset_group_name TEXT NOT NULL,
  modules_json TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (organization_id, subscription_id)
);
-- Account creation (AccountAssetCreate) and cloning (AccountAssetClone): asynchronous work, done once due.
CREATE TABLE IF NOT EXISTS asset_group_works (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  asset_group_id TEXT NOT NULL,
  work_type TEXT NOT NULL,
  status TEXT NOT NULL,                -- Pending | Processing | Completed | ProcessingError
  request_json TEXT NOT NULL,          -- what the caller asked (target account, subscription, source account)
  source_account_id TEXT,
  target_account_id TEXT,              -- set once Completed
  created_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  failure_json TEXT
);
CREATE INDEX IF NOT EXISTS asset_group_works_by_org ON asset_group_works(organization_id, work_type);
CREATE INDEX IF NOT EXISTS asset_group_works_due ON asset_group_works(status, due_at);
-- An account's settings (DocuSign's accountSettingsInformation names), as strings; absent: the default.
CREATE TABLE IF NOT EXISTS account_settings (
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (account_id, name)
);
-- Bulk imports and exports of the organisation (users, account settings): a request, its CSV and results.
CREATE TABLE IF NOT EXISTS admin_bulk_jobs (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  kind TEXT NOT NULL,                  -- user_import | user_export | settings_export | settings_import
  type TEXT NOT NULL,                  -- the wire's type (add, update, close, organization_memberships_export …)
  status TEXT NOT NULL,                -- queued | completed | failed
  request_json TEXT NOT NULL,
  input_csv TEXT,
  result_json TEXT,
  result_csv TEXT,
  created_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  completed_at INTEGER,
  requestor_user_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS admin_bulk_jobs_by_org ON admin_bulk_jobs(organization_id, kind);
-- Product permission profiles of a user in an account (the eSignature one is the user's own permission profile).
CREATE TABLE IF NOT EXISTS user_product_profiles (
  account_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  product_id TEXT NOT NULL,
  permission_profile_id TEXT NOT NULL,
  PRIMARY KEY (account_id, user_id, product_id)
);
-- Users whose personal data was redacted (DataRedaction): their rows stay, emptied.
CREATE TABLE IF NOT EXISTS redacted_users (
  user_id TEXT NOT NULL,
  scope TEXT NOT NULL,                 -- organization | account
  scope_id TEXT NOT NULL,
  redacted_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, scope, scope_id)
);
`;
