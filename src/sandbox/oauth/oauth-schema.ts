/**
 * Tables of the sandbox's account server (DocuSign's /oauth): integration
 * keys' RSA public keys, secret keys (sha256) and redirect URIs, consents, authorization codes and refresh tokens.
 * Access tokens go in the API's own `access_tokens` table, so the API's
 * authenticator accepts them unchanged. Secrets (codes, refresh tokens) are
 * stored as their sha256 only. `IF NOT EXISTS`: a data folder made before
 * these tables gets them when it is next opened.
 */
export const oauthSchemaSql = `
CREATE TABLE IF NOT EXISTS oauth_rsa_keys (
  keypair_id TEXT PRIMARY KEY,
  integrator_key TEXT NOT NULL,
  public_key_pem TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS oauth_rsa_keys_by_integrator_key ON oauth_rsa_keys(integrator_key);
CREATE TABLE IF NOT EXISTS oauth_secrets (
  secret_id TEXT PRIMARY KEY,
  integrator_key TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS oauth_secrets_by_integrator_key ON oauth_secrets(integrator_key);
CREATE TABLE IF NOT EXISTS oauth_redirect_uris (
  integrator_key TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  PRIMARY KEY (integrator_key, redirect_uri)
);
CREATE TABLE IF NOT EXISTS oauth_consents (
  integrator_key TEXT NOT NULL,
  user_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (integrator_key, user_id, scope)
);
CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash TEXT PRIMARY KEY,
  integrator_key TEXT NOT NULL,
  user_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE IF NOT EXISTS oauth_refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  integrator_key TEXT NOT NULL,
  user_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
`;
