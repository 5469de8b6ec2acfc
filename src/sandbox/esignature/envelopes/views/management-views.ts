import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SandboxDatabase } from '../../../platform/db/open-database.js';

/** The two pages a sender's application embeds: the sender view of a draft, and the console. */
export type ManagementViewKind = 'sender' | 'console';

/** An open sender or console session. */
export interface ManagementSession {
  id: string;
  kind: ManagementViewKind;
  accountId: string;
  userId: string;
  envelopeId: string | null;
  returnUrl: string;
  csrfToken: string;
  expiresAt: number;
}

/** How long a sender or console session lasts once opened, ms (DocuSign's web app signs out after a similar idle hour). */
export const managementSessionMs = 60 * 60 * 1000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type ManagementViews = ReturnType<typeof createManagementViews>;

const stores = new WeakMap<SandboxDatabase, ManagementViews>();

/** The sender and console views of a database (table `management_views`, db/schema.ts). */
export function managementViews(db: SandboxDatabase): ManagementViews {
  let store = stores.get(db);
  if (!store) {
    store = createManagementViews(db);
    stores.set(db, store);
  }
  return store;
}

interface Row {
  session_id: string;
  kind: ManagementViewKind;
  account_id: string;
  user_id: string;
  envelope_id: string | null;
  return_url: string;
  token_expires_at: number;
  used_at: number | null;
  secret_hash: string | null;
  csrf_token: string | null;
  expires_at: number | null;
  finished_at: number | null;
}

/**
 * Single-use view tokens (as the signing page's: `views/sender` and
 * `views/console` hand out an address holding one) that open a session held
 * by an HttpOnly cookie; forms carry a CSRF token.
 */
function createManagementViews(db: SandboxDatabase) {
  const insert = db.prepare(
    `INSERT INTO management_views (session_id, token_hash, kind, account_id, user_id, envelope_id, return_url, token_expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byToken = db.prepare<[string], Row>('SELECT * FROM management_views WHERE token_hash = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM management_views WHERE session_id = ?');
  const open = db.prepare(
    'UPDATE management_views SET used_at = ?, secret_hash = ?, csrf_token = ?, expires_at = ? WHERE session_id = ? AND used_at IS NULL',
  );
  const finish = db.prepare('UPDATE management_views SET finished_at = ? WHERE session_id = ?');
  return {
    /** A new token for a view; the address handed out holds it. */
    issue(
      v: { kind: ManagementViewKind; accountId: string; userId: string; envelopeId: string | null; returnUrl: string },
      now: number,
      ttlSeconds: number,
    ): string {
      const token = randomBytes(32).toString('base64url');
      insert.run(
        randomUUID(),
        sha256(token),
        v.kind,
        v.accountId,
        v.userId,
        v.envelopeId,
        v.returnUrl,
        now + ttlSeconds * 1000,
      );
      return token;
    },
    /** Spends a token: a session and the secret its cookie holds, or why not. */
    open(
      token: string,
      kind: ManagementViewKind,
      now: number,
    ):
      | { ok: true; session: ManagementSession; secret: string }
      | { ok: false; reason: 'unknown' | 'used' | 'expired'; returnUrl?: string } {
      const row = byToken.get(sha256(token));
      if (!row || row.kind !== kind) return { ok: false, reason: 'unknown' };
      if (row.used_at !== null) return { ok: false, reason: 'used', returnUrl: row.return_url };
      if (row.token_expires_at < now) return { ok: false, reason: 'expired', returnUrl: row.return_url };
      const secret = randomBytes(32).toString('base64url');
      const csrf = randomBytes(24).toString('base64url');
      if (open.run(now, sha256(secret), csrf, now + managementSessionMs, row.session_id).changes === 0)
        return { ok: false, reason: 'used', returnUrl: row.return_url };
      return {
        ok: true,
        secret,
        session: sessionOf({ ...row, csrf_token: csrf, expires_at: now + managementSessionMs }),
      };
    },
    /** The session a request names, when its cookie holds the secret and it is live. */
    check(
      id: string,
      kind: ManagementViewKind,
      secret: string | undefined,
      now: number,
    ): ManagementSession | undefined {
      const row = byId.get(id);
      if (!row || row.kind !== kind || row.secret_hash === null || secret === undefined) return undefined;
      const given = Buffer.from(sha256(secret));
      if (!timingSafeEqual(given, Buffer.from(row.secret_hash))) return undefined;
      if (row.finished_at !== null || (row.expires_at ?? 0) < now) return undefined;
      return sessionOf(row);
    },
    finish(id: string, now: number): void {
      finish.run(now, id);
    },
  };
}

function sessionOf(row: Row): ManagementSession {
  return {
    id: row.session_id,
    kind: row.kind,
    accountId: row.account_id,
    userId: row.user_id,
    envelopeId: row.envelope_id,
    returnUrl: row.return_url,
    csrfToken: row.csrf_token ?? '',
    expiresAt: row.expires_at ?? 0,
  };
}

/** Constant-time comparison of a submitted CSRF token. */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
