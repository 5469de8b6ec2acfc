import { randomUUID } from 'node:crypto';
import type { SandboxDatabase } from '../db/open-database.js';
import { hashToken, newToken } from '../repositories/view-tokens.js';
import { oauthConsents } from './oauth-consents.js';

/** An RSA public key registered on an integration key (DocuSign's "Apps and Keys" page). */
export interface RsaKeyRecord {
  keypairId: string;
  integratorKey: string;
  publicKeyPem: string;
}

/** What an authorization code or refresh token grants. */
export interface GrantRecord {
  integratorKey: string;
  userId: string;
  /** Space-separated scopes. */
  scope: string;
}

export interface CodeRecord extends GrantRecord {
  redirectUri: string;
  /** PKCE S256 challenge; null: the code was issued without PKCE. */
  codeChallenge: string | null;
}

/** Why a single-use secret opens nothing. */
export type Refusal = { ok: false; reason: 'unknown' | 'used' | 'expired' };

export type OAuthStore = ReturnType<typeof oauthStore>;

/**
 * The account server's storage. Access tokens, codes and refresh tokens are
 * random 32-byte strings handed out once; the database keeps only their
 * sha256. Codes and refresh tokens are single use: taking one marks it used
 * in the same statement that reads it, so two concurrent exchanges cannot
 * both succeed.
 */
export function oauthStore(db: SandboxDatabase) {
  const consents = oauthConsents(db);
  const q = {
    insertKey: db.prepare(
      'INSERT INTO oauth_rsa_keys (keypair_id, integrator_key, public_key_pem, created_at) VALUES (?, ?, ?, ?)',
    ),
    keys: db.prepare<[string], { keypair_id: string; public_key_pem: string }>(
      'SELECT keypair_id, public_key_pem FROM oauth_rsa_keys WHERE integrator_key = ? ORDER BY created_at, keypair_id',
    ),
    insertSecret: db.prepare(
      'INSERT INTO oauth_secrets (secret_id, integrator_key, secret_hash, created_at) VALUES (?, ?, ?, ?)',
    ),
    secret: db.prepare<[string, string], { n: number }>(
      'SELECT 1 AS n FROM oauth_secrets WHERE integrator_key = ? AND secret_hash = ?',
    ),
    insertAccessToken: db.prepare(
      'INSERT INTO access_tokens (token_hash, user_id, integrator_key, created_at, expires_at, scope) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    accessToken: db.prepare<[string], { user_id: string; integrator_key: string; expires_at: number }>(
      'SELECT user_id, integrator_key, expires_at FROM access_tokens WHERE token_hash = ?',
    ),
    insertCode: db.prepare(
      `INSERT INTO oauth_codes (code_hash, integrator_key, user_id, scope, redirect_uri, code_challenge, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    takeCode: db.prepare<
      [number, string],
      {
        integrator_key: string;
        user_id: string;
        scope: string;
        redirect_uri: string;
        code_challenge: string | null;
        expires_at: number;
      }
    >(
      'UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL RETURNING integrator_key, user_id, scope, redirect_uri, code_challenge, expires_at',
    ),
    codeExists: db.prepare<[string], { n: number }>('SELECT 1 AS n FROM oauth_codes WHERE code_hash = ?'),
    insertRefresh: db.prepare(
      `INSERT INTO oauth_refresh_tokens (token_hash, integrator_key, user_id, scope, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    takeRefresh: db.prepare<
      [number, string],
      { integrator_key: string; user_id: string; scope: string; expires_at: number }
    >(
      'UPDATE oauth_refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL RETURNING integrator_key, user_id, scope, expires_at',
    ),
    refreshExists: db.prepare<[string], { n: number }>('SELECT 1 AS n FROM oauth_refresh_tokens WHERE token_hash = ?'),
  };

  return {
    addRsaKey(integratorKey: string, publicKeyPem: string, now: number): RsaKeyRecord {
      const keypairId = randomUUID();
      q.insertKey.run(keypairId, integratorKey, publicKeyPem, now);
      return { keypairId, integratorKey, publicKeyPem };
    },

    rsaKeys(integratorKey: string): RsaKeyRecord[] {
      return q.keys
        .all(integratorKey)
        .map((r) => ({ keypairId: r.keypair_id, integratorKey, publicKeyPem: r.public_key_pem }));
    },

    /** A new secret key for an integration key; returns it (shown once: only its sha256 is kept). */
    addSecret(integratorKey: string, now: number): { secretId: string; secret: string } {
      const secretId = randomUUID();
      const secret = newToken();
      q.insertSecret.run(secretId, integratorKey, hashToken(secret), now);
      return { secretId, secret };
    },

    /** True when `secret` is one of the integration key's secret keys. */
    isSecretOf(integratorKey: string, secret: string): boolean {
      return q.secret.get(integratorKey, hashToken(secret)) !== undefined;
    },

    /** Scopes among `scopes` that the user has not consented to for this integration key. */
    missingConsent(integratorKey: string, userId: string, scopes: readonly string[]): string[] {
      return consents.missing(integratorKey, userId, scopes);
    },

    /** Records the user's consent to `scopes` for the integration key. */
    recordConsent(integratorKey: string, userId: string, scopes: readonly string[], now: number): void {
      consents.grant(integratorKey, userId, scopes, now);
    },

    /** A new access token for the API (`Authorization: Bearer`); returns the token itself, shown once. */
    issueAccessToken(grant: GrantRecord, now: number, lifetimeSeconds: number): string {
      const token = newToken();
      q.insertAccessToken.run(
        hashToken(token),
        grant.userId,
        grant.integratorKey,
        now,
        now + lifetimeSeconds * 1000,
        grant.scope,
      );
      return token;
    },

    /** The user and integration key of a live access token; undefined when unknown or expired. */
    accessToken(token: string, now: number): { userId: string; integratorKey: string } | undefined {
      const row = q.accessToken.get(hashToken(token));
      if (!row || row.expires_at < now) return undefined;
      return { userId: row.user_id, integratorKey: row.integrator_key };
    },

    issueCode(code: CodeRecord, now: number, lifetimeSeconds: number): string {
      const token = newToken();
      q.insertCode.run(
        hashToken(token),
        code.integratorKey,
        code.userId,
        code.scope,
        code.redirectUri,
        code.codeChallenge,
        now,
        now + lifetimeSeconds * 1000,
      );
      return token;
    },

    /** Burns an authorization code and returns what it grants. */
    takeCode(code: string, now: number): ({ ok: true } & CodeRecord) | Refusal {
      const hash = hashToken(code);
      const row = q.takeCode.get(now, hash);
      if (!row) return { ok: false, reason: q.codeExists.get(hash) ? 'used' : 'unknown' };
      if (row.expires_at < now) return { ok: false, reason: 'expired' };
      return {
        ok: true,
        integratorKey: row.integrator_key,
        userId: row.user_id,
        scope: row.scope,
        redirectUri: row.redirect_uri,
        codeChallenge: row.code_challenge,
      };
    },

    issueRefreshToken(grant: GrantRecord, now: number, lifetimeSeconds: number): string {
      const token = newToken();
      q.insertRefresh.run(
        hashToken(token),
        grant.integratorKey,
        grant.userId,
        grant.scope,
        now,
        now + lifetimeSeconds * 1000,
      );
      return token;
    },

    /** Burns a refresh token (each use hands out a new one) and returns what it grants. */
    takeRefreshToken(token: string, now: number): ({ ok: true } & GrantRecord) | Refusal {
      const hash = hashToken(token);
      const row = q.takeRefresh.get(now, hash);
      if (!row) return { ok: false, reason: q.refreshExists.get(hash) ? 'used' : 'unknown' };
      if (row.expires_at < now) return { ok: false, reason: 'expired' };
      return { ok: true, integratorKey: row.integrator_key, userId: row.user_id, scope: row.scope };
    },
  };
}
