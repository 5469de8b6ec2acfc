import type { EnvelopeRecord, RecipientRecord, SigningRecord } from '../output/records.js';
import type { RecipientOutcome } from '../runner/run-results.js';
import type { EnvelopeStatusFacts } from '../state/journal-record.js';
import { isSettled, recipientStatusAt } from './status-facts.js';

/** envelope.json with the listing's facts: status and dates, and each recipient's. */
export function withFacts(record: EnvelopeRecord, facts: EnvelopeStatusFacts): EnvelopeRecord {
  const next: EnvelopeRecord = { ...record, status: facts.status };
  for (const key of [
    'statusAt',
    'sentAt',
    'deliveredAt',
    'completedAt',
    'declinedAt',
    'voidedAt',
    'voidedReason',
    'declinedReason',
  ] as const) {
    if (facts[key] !== undefined) next[key] = facts[key];
  }
  const byId = new Map(facts.recipients.map((r) => [r.recipientId, r]));
  const merged: RecipientRecord[] = record.recipients.map((r) => {
    const f = byId.get(r.recipientId);
    byId.delete(r.recipientId);
    return f ? { ...r, ...f } : r;
  });
  for (const f of byId.values()) merged.push({ ...f });
  next.recipients = merged;
  return next;
}

/** Each recipient as the report shows it: name, status and since when, and whether a signing address is needed. */
export function recipientOutcomes(record: EnvelopeRecord, signing: SigningRecord | undefined): RecipientOutcome[] {
  const settled = isSettled(record.status);
  return record.recipients.map((r) => {
    const entry = signing?.recipients.find((s) => s.recipientId === r.recipientId);
    const done = settled || r.status === 'completed' || r.status === 'declined';
    const outcome: RecipientOutcome = {
      recipientId: r.recipientId,
      signing: r.clientUserId === undefined ? 'remote' : done ? 'finished' : (entry?.state ?? 'waiting-for-turn'),
    };
    if (r.name !== undefined) outcome.name = r.name;
    if (r.email !== undefined) outcome.email = r.email;
    if (r.roleName !== undefined) outcome.roleName = r.roleName;
    if (r.clientUserId !== undefined) outcome.clientUserId = r.clientUserId;
    if (r.routingOrder !== undefined) outcome.routingOrder = r.routingOrder;
    if (r.status !== undefined) outcome.status = r.status;
    const at = recipientStatusAt(r);
    if (at !== undefined) outcome.statusAt = at;
    if (r.declinedReason !== undefined) outcome.declinedReason = r.declinedReason;
    return outcome;
  });
}
