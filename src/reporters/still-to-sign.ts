import { isSettledEnvelope, isStillToAct } from '../envelope/statuses.js';
import { routedStatus } from '../envelope/routing-turn.js';
import { recipientKindNamed, shorthandRecipientKind } from '../envelope/recipient-kinds.js';
import type { EnvelopeResult } from '../runner/run-summary.js';

/** A recipient who has neither signed nor declined, in an envelope that is not settled. */
export interface StillToSign {
  job: string;
  key: string;
  envelopeStatus: string;
  recipientId: string;
  name?: string;
  email?: string;
  /** The recipient's part when not a signer's, in words ("witness", "certified delivery"). */
  part?: string;
  /** An embedded recipient (a clientUserId): signs in the sender's application, never reminded by email. */
  embedded?: boolean;
  /** created (routing order not come), sent, delivered (opened). */
  status: string;
  /** Since when (sent or opened); undefined when the service never said. */
  since?: string;
}

/**
 * The recipients of one envelope still to sign (none when the envelope is
 * settled). Until a sync says what the service knows, a recipient's status
 * follows from the routing: those of the first routing order still to act
 * were sent it when signrun sent the envelope (since then, when this run
 * sent it); later ones are `created`, not yet notified.
 */
export function stillToSignOf(e: EnvelopeResult): StillToSign[] {
  if (!e.envelopeId || e.status === undefined || isSettledEnvelope(e.status)) return [];
  const pending = e.recipients.filter((r) => isStillToAct(r.status, r.kind));
  return pending.map((r) => {
    const known = r.status !== undefined;
    const status = routedStatus(r, e.recipients, e.status);
    const item: StillToSign = {
      job: e.job,
      key: e.key,
      envelopeStatus: e.status ?? 'sent',
      recipientId: r.recipientId,
      status,
    };
    if (r.name !== undefined) item.name = r.name;
    if (r.email !== undefined) item.email = r.email;
    const part = partOf(r.kind);
    if (part !== undefined) item.part = part;
    if (r.clientUserId !== undefined) item.embedded = true;
    // An envelope adopted from the service (sent by an earlier run whose record is gone) was not sent at this
    // run's start: since when is unknown until a sync says.
    const sentThisRun = !known && status === 'sent' && e.adopted !== true;
    const since = r.statusAt ?? (sentThisRun ? e.startedAt : undefined);
    if (since !== undefined) item.since = since;
    return item;
  });
}

/** A recipient's part in words when it is not a signer's ("witness", "in person signer"); undefined for a signer. */
export function partOf(kind: string | undefined): string | undefined {
  const known = kind === undefined ? undefined : recipientKindNamed(kind);
  return known === undefined || known.name === shorthandRecipientKind ? undefined : known.role.toLowerCase();
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
