import { recipientsByKind, type Envelope, type WireRecipient } from '../envelope/wire.js';
import { shorthandRecipientKind } from '../envelope/recipient-kinds.js';
import type { EnvelopeStatusFacts, RecipientStatus } from './journal-record.js';
import type { EnvelopeRecord, RecipientRecord } from '../output/records.js';
import { copyFacts, envelopeFactFields } from '../output/status-fields.js';

/**
 * The facts a sync records of one envelope of the status-changes listing
 * (with `include=recipients`): status and when, why it was declined or
 * voided, and each recipient's status and dates (of every kind). Pure: the same listing gives
 * the same facts, so a re-sync that learns nothing writes nothing.
 */
export function statusFactsOf(envelope: Envelope): EnvelopeStatusFacts {
  const recipients = recipientsByKind(envelope.recipients).map(({ kind, recipient }) => {
    const status = recipientStatusOf(recipient);
    if (kind.name !== shorthandRecipientKind) status.kind = kind.name;
    return status;
  });
  const facts: EnvelopeStatusFacts = { status: (envelope.status ?? 'unknown').toLowerCase(), recipients };
  set(facts, 'statusAt', envelope.statusChangedDateTime);
  set(facts, 'sentAt', envelope.sentDateTime);
  set(facts, 'deliveredAt', envelope.deliveredDateTime);
  set(facts, 'completedAt', envelope.completedDateTime);
  set(facts, 'declinedAt', envelope.declinedDateTime);
  set(facts, 'voidedAt', envelope.voidedDateTime);
  set(facts, 'voidedReason', envelope.voidedReason);
  const decliner = recipients.find((r) => r.status === 'declined');
  set(facts, 'declinedReason', decliner?.declinedReason);
  return facts;
}

function recipientStatusOf(signer: WireRecipient): RecipientStatus {
  const r: RecipientStatus = {
    recipientId: signer.recipientId ?? '',
    status: (signer.status ?? 'unknown').toLowerCase(),
  };
  set(r, 'roleName', signer.roleName);
  set(r, 'name', signer.name);
  set(r, 'email', signer.email);
  set(r, 'clientUserId', signer.clientUserId);
  set(r, 'routingOrder', signer.routingOrder);
  set(r, 'sentAt', signer.sentDateTime);
  set(r, 'deliveredAt', signer.deliveredDateTime);
  set(r, 'signedAt', signer.signedDateTime);
  set(r, 'declinedAt', signer.declinedDateTime);
  set(r, 'declinedReason', signer.declinedReason);
  return r;
}

/** When the recipient's current status began: signed, declined, opened, or sent. */
export function recipientStatusAt(r: Pick<RecipientStatus, 'signedAt' | 'declinedAt' | 'deliveredAt' | 'sentAt'>) {
  return r.signedAt ?? r.declinedAt ?? r.deliveredAt ?? r.sentAt;
}

function set<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined && value !== null && value !== '') target[key] = value;
}

/** True when two facts say the same (a re-sync that learnt nothing records nothing). */
export function sameFacts(a: EnvelopeStatusFacts | undefined, b: EnvelopeStatusFacts): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** envelope.json with the listing's facts: status and dates, and each recipient's. */
export function withFacts(record: EnvelopeRecord, facts: EnvelopeStatusFacts): EnvelopeRecord {
  const next: EnvelopeRecord = { ...record, status: facts.status };
  copyFacts(next, facts, envelopeFactFields);
  const byId = new Map(facts.recipients.map((r) => [r.recipientId, r]));
  const merged: RecipientRecord[] = record.recipients.map((r) => {
    // A template role was written before the service numbered it (recipientId ""): found by its role.
    const f =
      byId.get(r.recipientId) ??
      (r.recipientId === '' && r.roleName !== undefined
        ? [...byId.values()].find((x) => x.roleName === r.roleName)
        : undefined);
    if (f) byId.delete(f.recipientId);
    return f ? { ...r, ...f } : r;
  });
  for (const f of byId.values()) merged.push({ ...f });
  next.recipients = merged;
  return next;
}
