import { recipientRefOf, type ResolvedEnvelope, type ResolvedRecipient } from '../../jobs/model.js';
import { recipientKind, recipientMustAct } from '../../envelope/recipient-kinds.js';

/** The recipients of an envelope, whichever its kind. */
export function recipientsOf(envelope: ResolvedEnvelope): ResolvedRecipient[] {
  switch (envelope.kind) {
    case 'template':
      return envelope.templateRoles;
    case 'composite':
      // The templates' roles filled, then the people added beyond them.
      return [...envelope.templateRoles, ...envelope.recipients];
    case 'documents':
      return envelope.recipients;
  }
}

/**
 * The embedded recipients that get a signing address when the envelope is
 * sent: those of the first routing order in which someone must act (a
 * carbon copy's order passes at once; a later one cannot act yet: DocuSign
 * answers RECIPIENT_NOT_IN_SEQUENCE), but not a witness, who acts after the
 * person they witness. None for a draft, or without a return URL.
 */
export function signersInTurn(envelope: ResolvedEnvelope): ResolvedRecipient[] {
  if (envelope.status !== 'sent' || !envelope.returnUrl) return [];
  const acting = recipientsOf(envelope).filter((r) => recipientMustAct(recipientKind(r.kind)));
  const orders = acting.map((r) => Number(r.routingOrder ?? '1'));
  const first = Math.min(...orders);
  return acting.filter(
    (r, i) => r.clientUserId !== undefined && orders[i] === first && !recipientKind(r.kind).signsFor,
  );
}

/** Identity of a signer's view in the journal: its recipientId, or for a template role its role name. */
export function viewKeyOf(signer: ResolvedRecipient): string {
  return recipientRefOf(signer);
}
