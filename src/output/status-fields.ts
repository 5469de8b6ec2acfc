/**
 * The status facts signrun keeps of an envelope and of each recipient (what
 * `sync` learns from DocuSign's status listing, state/status-facts.ts): one
 * list of field names, read by the journal's record of them, by
 * envelope.json, by the merge of the two, and by the results and reports
 * that show them. A new fact is one more name here. Here, in the lowest
 * layer that holds them (envelope.json), so the state and everything above
 * it share the list.
 */

/**
 * What is known of an envelope besides its `status`, in the order they are
 * written (envelope.json and the journal keep this order, so a record's
 * bytes do not depend on who merged it): when the status last changed, the
 * date of each stage, and why it was voided or declined.
 */
export const envelopeFactFields = [
  'statusAt',
  'sentAt',
  'deliveredAt',
  'completedAt',
  'declinedAt',
  'voidedAt',
  'voidedReason',
  'declinedReason',
] as const;

/** One of {@link envelopeFactFields}. */
export type EnvelopeFactField = (typeof envelopeFactFields)[number];

/** The envelope's facts as optional fields (ISO 8601 dates and DocuSign's reasons). */
export type EnvelopeFacts = { [K in EnvelopeFactField]?: string };

/** The facts a result or a status line shows of an envelope: since when, and why it ended. */
export const shownFactFields = [
  'statusAt',
  'voidedReason',
  'declinedReason',
] as const satisfies readonly EnvelopeFactField[];

/**
 * What is known of a recipient besides its id and `status`, in the order
 * they are written: who (as the service lists them), the date of each
 * stage, and why they declined.
 */
export const recipientFactFields = [
  'name',
  'email',
  'clientUserId',
  'routingOrder',
  'sentAt',
  'deliveredAt',
  'signedAt',
  'declinedAt',
  'declinedReason',
] as const;

/** One of {@link recipientFactFields}. */
export type RecipientFactField = (typeof recipientFactFields)[number];

/** A recipient's facts as optional fields. */
export type RecipientFacts = { [K in RecipientFactField]?: string };

/** Copies each of `fields` that `source` has (not undefined) onto `target`, in the order of `fields`. */
export function copyFacts<K extends string>(
  target: { [P in K]?: string },
  source: { [P in K]?: string },
  fields: readonly K[],
): void {
  for (const field of fields) {
    const value = source[field];
    if (value !== undefined) target[field] = value;
  }
}
