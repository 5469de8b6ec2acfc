import type { SandboxDatabase } from '../../platform/db/open-database.js';
import { objectRows } from '../../platform/db/object-rows.js';

/** Kinds of envelope and recipient events; the same names go to `services.events` (Connect listens). */
export type SandboxEventType =
  | 'envelope-sent'
  | 'envelope-delivered'
  | 'envelope-completed'
  | 'envelope-declined'
  | 'envelope-voided'
  | 'recipient-sent'
  | 'recipient-delivered'
  | 'recipient-completed'
  | 'recipient-declined';

/** One row of the events table, which the certificate of completion reads. */
export interface EventRecord {
  id: number;
  envelopeId: string;
  accountId: string;
  recipientId: string | null;
  type: SandboxEventType;
  /** Epoch ms. */
  at: number;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown> | null;
}

export type EventsRepository = ReturnType<typeof eventsRepository>;

export function eventsRepository(db: SandboxDatabase) {
  const insert = db.prepare(
    'INSERT INTO events (envelope_id, account_id, recipient_id, type, at, ip, user_agent, details_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const ofEnvelope = objectRows(db.prepare<[string]>('SELECT * FROM events WHERE envelope_id = ? ORDER BY id'));
  return {
    add(event: Omit<EventRecord, 'id'>): number {
      const info = insert.run(
        event.envelopeId,
        event.accountId,
        event.recipientId,
        event.type,
        event.at,
        event.ip,
        event.userAgent,
        event.details === null ? null : JSON.stringify(event.details),
      );
      return Number(info.lastInsertRowid);
    },
    ofEnvelope(envelopeId: string): EventRecord[] {
      return ofEnvelope.all(envelopeId).map((r) => ({
        id: r['id'] as number,
        envelopeId: r['envelope_id'] as string,
        accountId: r['account_id'] as string,
        recipientId: r['recipient_id'] as string | null,
        type: r['type'] as SandboxEventType,
        at: r['at'] as number,
        ip: r['ip'] as string | null,
        userAgent: r['user_agent'] as string | null,
        details: r['details_json'] ? (JSON.parse(r['details_json'] as string) as Record<string, unknown>) : null,
      }));
    },
  };
}
