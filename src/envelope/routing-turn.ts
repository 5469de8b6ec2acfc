import { isStillToAct } from './statuses.js';

/**
 * Whose turn it is, as signrun knows it from what it recorded: each
 * recipient's status when a sync (or Connect) told it, else what DocuSign's
 * routing implies. The service decides the turns (the sandbox in
 * src/sandbox/esignature/envelopes/routing.ts); this reads them back, for `remind` (only those
 * whose turn has come are reminded: DocuSign sends nothing to the others)
 * and for the reports' list of who is still to sign.
 */

/** A recipient as recorded (envelope.json, a result): its kind, routing order and last known status. */
export interface RoutedRecipient {
  kind?: string;
  routingOrder?: string;
  status?: string;
}

/** The routing order of a recorded recipient (DocuSign's default: 1). */
export function routingOrderOf(recipient: RoutedRecipient): number {
  const order = Number(recipient.routingOrder ?? '1');
  return Number.isFinite(order) ? order : 1;
}

/**
 * DocuSign's `currentRoutingOrder` as the records tell it: the lowest
 * routing order among the recipients still to act (a carbon copy never holds
 * the routing); undefined when nobody is.
 */
export function currentRoutingOrder(recipients: readonly RoutedRecipient[]): number | undefined {
  const pending = recipients.filter((r) => isStillToAct(r.status, r.kind));
  return pending.length === 0 ? undefined : Math.min(...pending.map(routingOrderOf));
}

/**
 * A recipient's status: the one the service gave, else the one the routing
 * implies — `created` (not notified yet) in a draft or after the current
 * routing order; `sent` for the current routing order of a sent envelope.
 */
export function routedStatus(
  recipient: RoutedRecipient,
  recipients: readonly RoutedRecipient[],
  envelopeStatus: string | undefined,
): string {
  if (recipient.status !== undefined) return recipient.status;
  if (envelopeStatus === 'created') return 'created';
  const current = currentRoutingOrder(recipients);
  return current !== undefined && routingOrderOf(recipient) > current ? 'created' : 'sent';
}

/** True when the recipient's turn has come and they have not acted yet: notified (`sent`) or opened (`delivered`). */
export function isInTurn(
  recipient: RoutedRecipient,
  recipients: readonly RoutedRecipient[],
  envelopeStatus: string | undefined,
): boolean {
  const status = routedStatus(recipient, recipients, envelopeStatus).toLowerCase();
  return isStillToAct(status, recipient.kind) && (status === 'sent' || status === 'delivered');
}
