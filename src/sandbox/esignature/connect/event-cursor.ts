import type { Database, Statement } from 'better-sqlite3';
import type { SandboxEvent } from '../envelopes/events.js';

/**
 * Reads the sandbox's events table (written by the lifecycle in the same
 * transaction as each change) from the last event Connect has queued. The
 * emitter only says "something happened"; what to send comes from the
 * table, and the cursor advances in the transaction that queues the
 * messages, so even a process killed between the lifecycle's commit and
 * the queueing loses no event: the next start catches up.
 */
export class EventCursor {
  constructor(private readonly db: Database) {
    db.exec(
      `CREATE TABLE IF NOT EXISTS connect_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), last_event_id INTEGER NOT NULL)`,
    );
    // A database made before Connect existed: start from now, do not replay history.
    db.prepare(
      `INSERT OR IGNORE INTO connect_cursor (id, last_event_id) SELECT 1, COALESCE(MAX(id), 0) FROM events`,
    ).run();
    // Prepared once: drain runs after every lifecycle change, on the envelope-creation hot path.
    this.readCursor = db.prepare('SELECT last_event_id FROM connect_cursor WHERE id = 1');
    this.readEvents = db.prepare(
      'SELECT id, envelope_id, account_id, recipient_id, type, at FROM events WHERE id > ? ORDER BY id LIMIT ?',
    );
    this.moveCursor = db.prepare('UPDATE connect_cursor SET last_event_id = ? WHERE id = 1');
    this.drainInTransaction = db.transaction((handle: (event: SandboxEvent) => void, batch: number) => {
      const { last_event_id: last } = this.readCursor.get() as { last_event_id: number };
      const rows = this.readEvents.all(last, batch) as EventRow[];
      for (const r of rows) {
        handle({
          type: r.type as SandboxEvent['type'],
          envelopeId: r.envelope_id,
          accountId: r.account_id,
          ...(r.recipient_id === null ? {} : { recipientId: r.recipient_id }),
          at: new Date(r.at).toISOString(),
        });
      }
      const end = rows.at(-1);
      if (end !== undefined) this.moveCursor.run(end.id);
      return rows.length;
    });
  }

  private readonly readCursor: Statement;
  private readonly readEvents: Statement;
  private readonly moveCursor: Statement;
  private readonly drainInTransaction: (handle: (event: SandboxEvent) => void, batch: number) => number;

  /**
   * Hands every event after the cursor to `handle` (in order), then moves
   * the cursor past them — all in one transaction with what `handle` writes.
   * Returns how many events were handled.
   */
  drain(handle: (event: SandboxEvent) => void, batch = 500): number {
    return this.drainInTransaction(handle, batch);
  }
}

interface EventRow {
  id: number;
  envelope_id: string;
  account_id: string;
  recipient_id: string | null;
  type: string;
  at: number;
}
