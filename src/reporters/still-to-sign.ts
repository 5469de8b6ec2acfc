import { isSettledEnvelope, isStillToAct } from '../envelope/statuses.js';
import type { EnvelopeResult } from '../runner/run-summary.js';

/** A recipient who has neither signed nor declined, in an envelope that is not settled. */
export interface StillToSign {
  job: string;
  key: string;
  envelopeStatus: string;
  recipientId: string;
  name?: string;
  email?: string;
  /** created (routing order not come), sent, delivered (opened). */
  status: string;
  /** Since when (sent or opened); undefined when the service never said. */
  since?: string;
}

/** The recipients of one envelope still to sign (none when the envelope is settled). */
export function stillToSignOf(e: EnvelopeResult): StillToSign[] {
  if (!e.envelopeId || e.status === undefined || isSettledEnvelope(e.status)) return [];
  return e.recipients
    .filter((r) => isStillToAct(r.status))
    .map((r) => {
      const item: StillToSign = {
        job: e.job,
        key: e.key,
        envelopeStatus: e.status ?? 'sent',
        recipientId: r.recipientId,
        status: r.status ?? 'sent',
      };
      if (r.name !== undefined) item.name = r.name;
      if (r.email !== undefined) item.email = r.email;
      if (r.statusAt !== undefined) item.since = r.statusAt;
      return item;
    });
}

/** Oldest first (the longest wait on top); those with no date last. */
export function oldestFirst(a: StillToSign, b: StillToSign): number {
  if (a.since === b.since) return `${a.job}/${a.key}`.localeCompare(`${b.job}/${b.key}`);
  if (a.since === undefined) return 1;
  if (b.since === undefined) return -1;
  return a.since.localeCompare(b.since);
}

/** Counts of envelopes per status (sent, delivered, completed, declined, voided), for summaries. */
export function countStatuses(statuses: Map<string, number>, e: EnvelopeResult): void {
  if (e.status === undefined) return;
  statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
}

/** "2 completed, 1 declined, 3 sent": settled first. */
export function statusLine(statuses: Map<string, number>): string {
  const order = ['completed', 'declined', 'voided', 'delivered', 'sent', 'created'];
  return [...statuses]
    .sort(([a], [b]) => ((order.indexOf(a) + 99) % 99) - ((order.indexOf(b) + 99) % 99) || a.localeCompare(b))
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}
