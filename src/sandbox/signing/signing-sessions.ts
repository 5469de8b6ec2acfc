import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from 'better-sqlite3';

/** A signing session: what the page's later requests carry once the single-use token is spent. */
export interface SigningSession {
  id: string;
  envelopeId: string;
  accountId: string;
  recipientId: string;
  returnUrl: string;
  /** Synchronizer token every POST must echo (CSRF). */
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
  /** The recipient entered its access code in this session (access-code.ts); false when it has none to enter. */
  accessCodePassed: boolean;
}

/** Why a session check failed. `returnUrl` is known for all but `unknown`. */
export type SessionRefusal =
  { ok: false; reason: 'unknown' } | { ok: false; reason: 'forbidden' | 'expired' | 'finished'; returnUrl: string };

/** Idle time after which a session ends, as DocuSign's 20-minute signing-session timeout. */
export const sessionIdleMs = 20 * 60 * 1000;

/**
 * Signing sessions in the sandbox database (table `signing_sessions` of
 * db/schema.ts, so a restart keeps them). The browser holds the session
 * secret in an HttpOnly cookie; the database holds only its sha256.
 */
export class SigningSessions {
  constructor(private readonly db: Database) {}

  /** Opens a session for a consumed view token; returns it with the cookie secret (shown once). */
  open(
    grant: { envelopeId: string; accountId: string; recipientId: string; returnUrl: string },
    now: number,
  ): { session: SigningSession; secret: string } {
    const session: SigningSession = {
      id: randomBytes(16).toString('base64url'),
      csrfToken: randomBytes(24).toString('base64url'),
      envelopeId: grant.envelopeId,
      accountId: grant.accountId,
      recipientId: grant.recipientId,
      returnUrl: grant.returnUrl,
      createdAt: now,
      expiresAt: now + sessionIdleMs,
      accessCodePassed: false,
    };
    const secret = randomBytes(32).toString('base64url');
    this.db
      .prepare(
        `INSERT INTO signing_sessions (id, secret_hash, csrf_token, envelope_id, account_id, recipient_id, return_url, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        session.id,
        sha256(secret),
        session.csrfToken,
        session.envelopeId,
        session.accountId,
        session.recipientId,
        session.returnUrl,
        now,
        session.expiresAt,
      );
    return { session, secret };
  }

  /** Checks the cookie secret; a live session's idle timer restarts. */
  check(id: string, secret: string | undefined, now: number): { ok: true; session: SigningSession } | SessionRefusal {
    const row = this.db.prepare('SELECT * FROM signing_sessions WHERE id = ?').get(id) as SessionRow | undefined;
    if (row === undefined) return { ok: false, reason: 'unknown' };
    const returnUrl = row.return_url;
    if (secret === undefined || !sameText(sha256(secret), row.secret_hash))
      return { ok: false, reason: 'forbidden', returnUrl };
    if (row.finished_at !== null) return { ok: false, reason: 'finished', returnUrl };
    if (now > row.expires_at) return { ok: false, reason: 'expired', returnUrl };
    const expiresAt = now + sessionIdleMs;
    this.db.prepare('UPDATE signing_sessions SET expires_at = ? WHERE id = ?').run(expiresAt, id);
    return {
      ok: true,
      session: {
        id: row.id,
        envelopeId: row.envelope_id,
        accountId: row.account_id,
        recipientId: row.recipient_id,
        returnUrl,
        csrfToken: row.csrf_token,
        createdAt: row.created_at,
        expiresAt,
        accessCodePassed: row.access_code_passed_at !== null,
      },
    };
  }

  /** The recipient entered its access code: the documents may show in this session. */
  passAccessCode(id: string, now: number): void {
    this.db.prepare('UPDATE signing_sessions SET access_code_passed_at = ? WHERE id = ?').run(now, id);
  }

  /** The signer finished (signed, declined, or left): the session opens nothing any more. */
  finish(id: string, now: number): void {
    this.db.prepare('UPDATE signing_sessions SET finished_at = ? WHERE id = ? AND finished_at IS NULL').run(now, id);
  }
}

interface SessionRow {
  id: string;
  secret_hash: string;
  csrf_token: string;
  envelope_id: string;
  account_id: string;
  recipient_id: string;
  return_url: string;
  created_at: number;
  expires_at: number;
  finished_at: number | null;
  access_code_passed_at: number | null;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Constant-time comparison of two strings (CSRF tokens, hashes). */
export function sameText(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
