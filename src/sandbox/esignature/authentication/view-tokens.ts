import { createHash, randomBytes } from 'node:crypto';
import type { SandboxDatabase } from '../../platform/db/open-database.js';

/** What a valid signing-view token opens. */
export interface ViewTokenGrant {
  ok: true;
  envelopeId: string;
  accountId: string;
  recipientId: string;
  returnUrl: string;
  /** Epoch ms when the token was issued and when it would have expired. */
  issuedAt: number;
  expiresAt: number;
}

/** Why a token opens nothing. `returnUrl` is known for used and expired tokens (to send the signer back with ttl_expired). */
export interface ViewTokenRefusal {
  ok: false;
  reason: 'unknown' | 'used' | 'expired';
  returnUrl?: string;
}

export type ViewTokenResult = ViewTokenGrant | ViewTokenRefusal;

/** Tokens are stored as their sha256 only: the database never holds a usable signing address. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export type ViewTokensRepository = ReturnType<typeof viewTokensRepository>;

export function viewTokensRepository(db: SandboxDatabase) {
  const insert = db.prepare(
    'INSERT INTO view_tokens (token_hash, envelope_id, account_id, recipient_id, return_url, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const get = db.prepare<[string], Record<string, unknown>>('SELECT * FROM view_tokens WHERE token_hash = ?');
  const use = db.prepare('UPDATE view_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL');
  return {
    /** Issues a token; returns the token itself (shown once, in the view URL). */
    issue(
      grant: { envelopeId: string; accountId: string; recipientId: string; returnUrl: string },
      now: number,
      ttlSeconds: number,
    ): string {
      const token = newToken();
      insert.run(
        hashToken(token),
        grant.envelopeId,
        grant.accountId,
        grant.recipientId,
        grant.returnUrl,
        now,
        now + ttlSeconds * 1000,
      );
      return token;
    },
    /** Single use: the first call with a live token succeeds and burns it; every later call says `used`. */
    consume(token: string, now: number): ViewTokenResult {
      const hash = hashToken(token);
      return db.transaction((): ViewTokenResult => {
        const row = get.get(hash);
        if (!row) return { ok: false, reason: 'unknown' };
        const returnUrl = row['return_url'] as string;
        if (row['used_at'] !== null) return { ok: false, reason: 'used', returnUrl };
        if (now > (row['expires_at'] as number)) return { ok: false, reason: 'expired', returnUrl };
        use.run(now, hash);
        return {
          ok: true,
          envelopeId: row['envelope_id'] as string,
          accountId: row['account_id'] as string,
          recipientId: row['recipient_id'] as string,
          returnUrl,
          issuedAt: row['created_at'] as number,
          expiresAt: row['expires_at'] as number,
        };
      })();
    },
  };
}
