import type { EnvelopeRecord, SigningRecord } from '../output/records.js';
import type { RecipientOutcome } from '../runner/run-results.js';
import { isSettledEnvelope, recipientHasActed } from '../envelope/statuses.js';
import { recipientStatusAt } from '../state/status-facts.js';

/** Each recipient as the report shows it: name, status and since when, and whether a signing address is needed. */
export function recipientOutcomes(record: EnvelopeRecord, signing: SigningRecord | undefined): RecipientOutcome[] {
  const settled = isSettledEnvelope(record.status);
  return record.recipients.map((r) => {
    const entry = signing?.recipients.find((s) => s.recipientId === r.recipientId);
    const done = settled || recipientHasActed(r.status);
    const outcome: RecipientOutcome = {
      recipientId: r.recipientId,
      ...(r.kind !== undefined ? { kind: r.kind } : {}),
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
