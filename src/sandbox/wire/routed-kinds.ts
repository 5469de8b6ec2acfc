import { recipientKind, type RecipientKindName } from '../../envelope/index.js';

/**
 * The recipient kind the sandbox routes today (stores, notifies, lets sign,
 * completes on): signers. A creation request with recipients of any other
 * kind is refused (400) rather than stored and silently never routed; every
 * answer lists the other kinds' collections empty, as DocuSign does. The one
 * place to widen when the sandbox routes carbon copies, witnesses, ….
 */
export const routedRecipientKind: RecipientKindName = 'signer';

/** `recipients.<collection>: the sandbox supports <collection> only.` — the refusal's wording, in one place. */
export function unroutedRecipientsMessage(collection: string): string {
  return `recipients.${collection}: the sandbox supports ${recipientKind(routedRecipientKind).collection} only.`;
}
