import { recipientKind, recipientMustAct } from '../../../envelope/index.js';
import { recipientHasActed } from '../../../envelope/statuses.js';
import type { RecipientRecord } from './repository.js';

/**
 * How an envelope's recipients take their turns, decided here only (the
 * lifecycle moves them, the answers and the views route ask): routing
 * orders in ascending order, everyone of one order at once; the next order
 * comes when everyone of this one who must act has acted. A carbon copy
 * never holds the routing: its turn passes as soon as it is reached. A
 * witness waits for the signer it witnesses, even in the same order.
 */

/** True when the envelope waits for this recipient to act (the catalogue's `recipientMustAct`). */
export function mustAct(recipient: RecipientRecord): boolean {
  return recipientMustAct(recipientKind(recipient.kind));
}

/** Reached (sent or opened) and still to act: what holds the routing. */
function holdsRouting(recipient: RecipientRecord): boolean {
  return mustAct(recipient) && (recipient.status === 'sent' || recipient.status === 'delivered');
}

/**
 * The recipients to send to now: those of the lowest routing order nobody
 * has been sent yet, if nobody reached still has to act; empty otherwise.
 * Call again after sending them when none of them must act (carbon copies
 * only), since their turn passes at once.
 */
export function nextToSend(recipients: readonly RecipientRecord[]): RecipientRecord[] {
  if (recipients.some(holdsRouting)) return [];
  const waiting = recipients.filter((r) => r.status === 'created');
  if (waiting.length === 0) return [];
  const order = Math.min(...waiting.map((r) => r.routingOrder));
  return waiting.filter((r) => r.routingOrder === order);
}

/** True when everyone who must act has completed: the envelope is done (carbon copies never hold it). */
export function everyoneActed(recipients: readonly RecipientRecord[]): boolean {
  return recipients.filter(mustAct).every((r) => r.status === 'completed');
}

/**
 * For a witness, the recipient it witnesses when that one has not signed yet
 * (the witness must wait); undefined for everyone else, and once it has.
 */
export function witnessedStillToSign(
  recipient: RecipientRecord,
  recipients: readonly RecipientRecord[],
): RecipientRecord | undefined {
  const witnessFor = recipient.details.witnessFor;
  if (!recipientKind(recipient.kind).signsFor || witnessFor === undefined) return undefined;
  const witnessed = recipients.find((r) => r.recipientId === witnessFor);
  return witnessed !== undefined && !recipientHasActed(witnessed.status) ? witnessed : undefined;
}

/** DocuSign's `currentRoutingOrder`: the order whose recipients can act now; the last one once nobody is left. */
export function currentRoutingOrder(recipients: readonly RecipientRecord[]): number {
  const pending = recipients.filter((r) => mustAct(r) && !recipientHasActed(r.status));
  return pending.length > 0
    ? Math.min(...pending.map((r) => r.routingOrder))
    : Math.max(1, ...recipients.map((r) => r.routingOrder));
}
