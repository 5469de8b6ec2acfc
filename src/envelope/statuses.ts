/**
 * DocuSign's status words for envelopes and recipients, and the two questions
 * signrun asks of them: is an envelope settled, has a recipient acted. One
 * place decides both, for the runner, sync, reports, links and the sandbox.
 *
 * The REST API writes the words in lower case (`completed`); Connect messages
 * capitalise them (`Completed`). The predicates compare without case.
 * Envelope statuses:
 * https://developers.docusign.com/docs/esign-rest-api/esign101/concepts/envelopes/status-codes/
 * Recipient statuses:
 * https://developers.docusign.com/docs/esign-rest-api/esign101/concepts/recipients/status-codes/
 */
import { recipientKindNamed, recipientMustAct } from './recipient-kinds.js';

/** The envelope statuses DocuSign gives (`envelope.status`). signrun sends with `created` or `sent` and voids with `voided`. */
export const envelopeStatuses = [
  'created',
  'sent',
  'delivered',
  'signed',
  'completed',
  'declined',
  'voided',
  'deleted',
] as const;

/** One of {@link envelopeStatuses}. */
export type EnvelopeStatus = (typeof envelopeStatuses)[number];

/**
 * The recipient statuses DocuSign gives (`recipients.signers[].status`).
 * `signed` is brief (the recipient finished, the envelope is being
 * processed) before `completed`; `autoresponded` means the notification
 * bounced: the recipient has done nothing yet.
 */
export const recipientStatuses = [
  'created',
  'sent',
  'delivered',
  'signed',
  'completed',
  'declined',
  'autoresponded',
  'faxpending',
] as const;

/** One of {@link recipientStatuses}. */
export type RecipientStatusWord = (typeof recipientStatuses)[number];

/**
 * Envelope statuses after which nothing more will happen to the envelope:
 * everyone signed, someone declined, or the sender voided it. No signing
 * address is asked for a settled envelope, and it never fails a run (a person
 * saying no is not something signrun failed to do).
 */
export const settledEnvelopeStatuses: ReadonlySet<string> = new Set<EnvelopeStatus>([
  'completed',
  'declined',
  'voided',
]);

/** True for completed, declined and voided (any case); false when the status is not known. */
export function isSettledEnvelope(status: string | undefined): boolean {
  return status !== undefined && settledEnvelopeStatuses.has(status.toLowerCase());
}

/**
 * Recipient statuses of someone who has acted: signed (`signed`, then
 * `completed`) or declined. Everyone else — `created` (their routing order
 * has not come), `sent`, `delivered` (opened), `autoresponded` (the email
 * bounced), or no status known — has still to act.
 */
export const actedRecipientStatuses: ReadonlySet<string> = new Set<RecipientStatusWord>([
  'signed',
  'completed',
  'declined',
]);

/** True when the recipient signed or declined (any case). */
export function recipientHasActed(status: string | undefined): boolean {
  return status !== undefined && actedRecipientStatuses.has(status.toLowerCase());
}

/**
 * True when the recipient has neither signed nor declined: the opposite of
 * {@link recipientHasActed} — except for a kind that never acts (a carbon
 * copy only receives), which is never still to act whatever its status.
 */
export function isStillToAct(status: string | undefined, kind?: string): boolean {
  const known = kind === undefined ? undefined : recipientKindNamed(kind);
  if (known !== undefined && !recipientMustAct(known)) return false;
  return !recipientHasActed(status);
}

/**
 * How far an envelope has gone: created, sent, delivered, signed, then a
 * settled status (completed, declined, voided), which is final. Unknown
 * words (`deleted`, anything new) have no place.
 */
const envelopeProgress: ReadonlyMap<string, number> = new Map([
  ['created', 0],
  ['sent', 1],
  ['delivered', 2],
  ['signed', 3],
  ['completed', 4],
  ['declined', 4],
  ['voided', 4],
]);

/**
 * True when going from `from` to `to` would take an envelope back (issue
 * 25): from a settled status to any other, or to an earlier one of created,
 * sent, delivered, signed (any case). A status never goes backwards in the
 * state: a listing that says so is reported, not applied. False when either
 * word is unknown or they are the same.
 */
export function isStatusRegression(from: string | undefined, to: string | undefined): boolean {
  if (from === undefined || to === undefined) return false;
  const a = envelopeProgress.get(from.toLowerCase());
  const b = envelopeProgress.get(to.toLowerCase());
  if (a === undefined || b === undefined || from.toLowerCase() === to.toLowerCase()) return false;
  return isSettledEnvelope(from) || b < a;
}
