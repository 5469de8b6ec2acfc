import type { SandboxDatabase } from './db/open-database.js';
import type { Clock } from './clock.js';

/** A message the sandbox "sent" (it sends nothing: it records it for people and tests to read). */
export interface OutboxMessage {
  id: number;
  /** ISO time. */
  at: string;
  /** envelope-notification, account-activation, or what another part adds (e.g. a remote signer's link). */
  kind: string;
  to: string;
  toName: string | null;
  subject: string;
  body: string;
  /** Links in the message (activation link, signing link). */
  links: string[];
  accountId: string | null;
  envelopeId: string | null;
  recipientId: string | null;
}

/** What `add` takes. */
export type NewOutboxMessage = Omit<
  OutboxMessage,
  'id' | 'at' | 'toName' | 'accountId' | 'envelopeId' | 'recipientId'
> &
  Partial<Pick<OutboxMessage, 'toName' | 'accountId' | 'envelopeId' | 'recipientId'>>;

/** The outbox: every message the service "sent", in order. */
export interface Outbox {
  add(message: NewOutboxMessage): OutboxMessage;
  /** All messages, oldest first; optionally only those to one address (case-insensitive). */
  list(filter?: { to?: string; accountId?: string; envelopeId?: string }): OutboxMessage[];
}

/**
 * `decorate` may rewrite each message before it is recorded (the envelope's
 * brand, brands/branded-message.ts); by default messages are kept as given.
 */
export function createOutbox(
  db: SandboxDatabase,
  clock: Clock,
  decorate: (message: NewOutboxMessage) => NewOutboxMessage = (m) => m,
): Outbox {
  const insert = db.prepare(
    `INSERT INTO outbox (at, kind, to_address, to_name, subject, body, links_json, account_id, envelope_id, recipient_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const toMessage = (r: Record<string, unknown>): OutboxMessage => ({
    id: r['id'] as number,
    at: new Date(r['at'] as number).toISOString(),
    kind: r['kind'] as string,
    to: r['to_address'] as string,
    toName: r['to_name'] as string | null,
    subject: r['subject'] as string,
    body: r['body'] as string,
    links: JSON.parse(r['links_json'] as string) as string[],
    accountId: r['account_id'] as string | null,
    envelopeId: r['envelope_id'] as string | null,
    recipientId: r['recipient_id'] as string | null,
  });
  return {
    add(given) {
      const message = decorate(given);
      const at = clock.now();
      const info = insert.run(
        at,
        message.kind,
        message.to,
        message.toName ?? null,
        message.subject,
        message.body,
        JSON.stringify(message.links),
        message.accountId ?? null,
        message.envelopeId ?? null,
        message.recipientId ?? null,
      );
      return {
        id: Number(info.lastInsertRowid),
        at: new Date(at).toISOString(),
        toName: null,
        accountId: null,
        envelopeId: null,
        recipientId: null,
        ...message,
      };
    },
    list(filter = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.to) {
        where.push('to_address = ? COLLATE NOCASE');
        params.push(filter.to);
      }
      if (filter.accountId) {
        where.push('account_id = ?');
        params.push(filter.accountId);
      }
      if (filter.envelopeId) {
        where.push('envelope_id = ?');
        params.push(filter.envelopeId);
      }
      const sql = `SELECT * FROM outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`;
      return (db.prepare(sql).all(...params) as Record<string, unknown>[]).map(toMessage);
    },
  };
}
