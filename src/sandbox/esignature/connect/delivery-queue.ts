import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';

/** A delivery waiting for (or being) POSTed. */
export interface ConnectDelivery {
  id: number;
  failureId: string;
  accountId: string;
  envelopeId: string;
  event: string;
  url: string;
  /** The exact bytes POSTed (and signed). */
  body: string;
  /** X-DocuSign-Signature-1, computed once at enqueue; absent when the account has no HMAC key. */
  signature: string | undefined;
  attempts: number;
}

/** A delivery whose last attempt failed (still retrying, or given up). */
export interface ConnectFailureRow extends ConnectDelivery {
  status: 'pending' | 'failed';
  lastError: string;
  lastTryAt: number;
  createdAt: number;
  /** Envelope status carried by the message, for the failure log. */
  envelopeStatus: string | undefined;
}

/** What enqueue needs. */
export interface NewDelivery {
  accountId: string;
  envelopeId: string;
  event: string;
  url: string;
  body: string;
  signature?: string;
  /** Envelope status after the event (for the failure log). */
  envelopeStatus?: string;
}

/**
 * The Connect delivery queue, in its own table of the sandbox database so a
 * restart loses nothing. Deliveries to one address go out one at a time in
 * the order they were queued (a failing receiver holds back the later events
 * for it until it recovers or the delivery is given up), so receivers see
 * events in order.
 */
export class ConnectQueue {
  constructor(private readonly db: Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS connect_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        failure_id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL,
        envelope_id TEXT NOT NULL,
        event TEXT NOT NULL,
        url TEXT NOT NULL,
        body TEXT NOT NULL,
        signature TEXT,
        envelope_status TEXT,
        status TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        last_try_at INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS connect_deliveries_pending ON connect_deliveries (status, url, id);
    `);
    // A delivery in flight when the process stopped may or may not have
    // arrived: send it again (at least once, as Connect promises).
    db.prepare(`UPDATE connect_deliveries SET status = 'pending' WHERE status = 'delivering'`).run();
    // Prepared once: enqueue, claim and nextDueAt run for every event, on the envelope-creation hot path.
    this.insert = db.prepare(
      `INSERT INTO connect_deliveries (failure_id, account_id, envelope_id, event, url, body, signature, envelope_status, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectDue = db.prepare(
      `SELECT * FROM connect_deliveries d
       WHERE d.status = 'pending' AND d.next_attempt_at <= ?
         AND d.id = (SELECT MIN(id) FROM connect_deliveries p WHERE p.url = d.url AND p.status IN ('pending', 'delivering'))
       ORDER BY d.id LIMIT ?`,
    );
    this.markDelivering = db.prepare(`UPDATE connect_deliveries SET status = 'delivering' WHERE id = ?`);
    this.selectNextDue = db.prepare(
      `SELECT MIN(next_attempt_at) AS t FROM connect_deliveries WHERE status = 'pending'`,
    );
    this.claimInTransaction = db.transaction((now: number, limit: number) => {
      const rows = this.selectDue.all(now, limit) as DeliveryRow[];
      for (const r of rows) this.markDelivering.run(r.id);
      return rows.map(toDelivery);
    });
  }

  private readonly insert: Statement;
  private readonly selectDue: Statement;
  private readonly markDelivering: Statement;
  private readonly selectNextDue: Statement;
  private readonly claimInTransaction: (now: number, limit: number) => ConnectDelivery[];

  /** Queues one message, due now. */
  enqueue(d: NewDelivery, now: number): number {
    const info = this.insert.run(
      randomUUID(),
      d.accountId,
      d.envelopeId,
      d.event,
      d.url,
      d.body,
      d.signature ?? null,
      d.envelopeStatus ?? null,
      now,
      now,
    );
    return Number(info.lastInsertRowid);
  }

  /**
   * Claims up to `limit` due deliveries: for each address, only its oldest
   * pending one, and only if nothing for that address is in flight.
   */
  claimDue(now: number, limit: number): ConnectDelivery[] {
    return this.claimInTransaction(now, limit);
  }

  /** Earliest time something becomes due, or undefined when nothing is pending. */
  nextDueAt(): number | undefined {
    const row = this.selectNextDue.get() as { t: number | null };
    return row.t ?? undefined;
  }

  /** An attempt cut short by shutdown: due again at the next start, not counted as a failure. */
  release(id: number): void {
    this.db.prepare(`UPDATE connect_deliveries SET status = 'pending' WHERE id = ? AND status = 'delivering'`).run(id);
  }

  /** The receiver answered 2xx. */
  delivered(id: number, now: number): void {
    this.db
      .prepare(
        `UPDATE connect_deliveries SET status = 'delivered', attempts = attempts + 1, last_try_at = ?, last_error = NULL WHERE id = ?`,
      )
      .run(now, id);
  }

  /** An attempt failed; retry at `retryAt`, or give up when it is undefined. */
  attemptFailed(id: number, error: string, now: number, retryAt: number | undefined): void {
    this.db
      .prepare(
        `UPDATE connect_deliveries SET status = ?, attempts = attempts + 1, last_try_at = ?, last_error = ?, next_attempt_at = ? WHERE id = ?`,
      )
      .run(retryAt === undefined ? 'failed' : 'pending', now, error, retryAt ?? now, id);
  }

  /** Deliveries whose last attempt failed, oldest first (the failure log). */
  failures(accountId: string, range: { from?: number; to?: number } = {}): ConnectFailureRow[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM connect_deliveries
         WHERE account_id = ? AND status IN ('pending', 'failed') AND last_error IS NOT NULL
           AND created_at >= ? AND created_at <= ?
         ORDER BY id`,
      )
      .all(accountId, range.from ?? 0, range.to ?? Number.MAX_SAFE_INTEGER) as DeliveryRow[];
    return rows.map((r) => ({
      ...toDelivery(r),
      status: r.status === 'failed' ? 'failed' : 'pending',
      lastError: r.last_error ?? '',
      lastTryAt: r.last_try_at ?? r.created_at,
      createdAt: r.created_at,
      envelopeStatus: r.envelope_status ?? undefined,
    }));
  }

  /** Every delivery for an envelope, in queue order (tests, diagnostics). */
  forEnvelope(envelopeId: string): { event: string; status: string; attempts: number }[] {
    return this.db
      .prepare(`SELECT event, status, attempts FROM connect_deliveries WHERE envelope_id = ? ORDER BY id`)
      .all(envelopeId) as { event: string; status: string; attempts: number }[];
  }
}

interface DeliveryRow {
  id: number;
  failure_id: string;
  account_id: string;
  envelope_id: string;
  event: string;
  url: string;
  body: string;
  signature: string | null;
  envelope_status: string | null;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  last_try_at: number | null;
  created_at: number;
}

function toDelivery(r: DeliveryRow): ConnectDelivery {
  return {
    id: r.id,
    failureId: r.failure_id,
    accountId: r.account_id,
    envelopeId: r.envelope_id,
    event: r.event,
    url: r.url,
    body: r.body,
    signature: r.signature ?? undefined,
    attempts: r.attempts,
  };
}
