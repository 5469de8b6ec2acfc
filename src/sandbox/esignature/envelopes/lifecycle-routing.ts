import type { EnvelopeRecord, RecipientRecord } from './repository.js';
import { serviceActor, type Actor, type LifecycleDeps, type RecordEvent } from './lifecycle-contract.js';
import { everyoneActed, mustAct, nextToSend } from './routing.js';

/** The routing steps every lifecycle change shares (inside its transaction). */
export interface LifecycleRouting {
  /** Marks the envelope sent and sends its first routing order (or completes it at once). */
  sendInTransaction(envelope: EnvelopeRecord, recipients: RecipientRecord[], record: RecordEvent, actor: Actor): void;
  /** Sends the next routing order, or completes the envelope when everyone who must act has. */
  advance(envelope: EnvelopeRecord, recipients: RecipientRecord[], record: RecordEvent, actor: Actor): void;
  /** The envelope's first view or signature moves it from `sent` to `delivered`; later ones change nothing. */
  deliverEnvelope(envelope: EnvelopeRecord, now: number, record: RecordEvent, actor: Actor): void;
}

type NotificationKind = 'envelope-notification' | 'envelope-completed';
type Links = (envelope: EnvelopeRecord, recipient: RecipientRecord) => string[];

export function lifecycleRouting(deps: LifecycleDeps): LifecycleRouting {
  const { envelopes, clock } = deps;

  /**
   * The message a recipient gets: when its turn comes (`envelope-notification`)
   * or, for a carbon copy, with the completed documents (`envelope-completed`).
   * DocuSign sends no email to embedded recipients (clientUserId): the
   * client's own application shows them the view.
   */
  function notify(envelope: EnvelopeRecord, recipient: RecipientRecord, kind: NotificationKind, links: Links): void {
    // Embedded: the client's application shows the view. No address: a placeholder no rule filled.
    if (recipient.clientUserId !== null || recipient.email === '') return;
    const subject = recipient.emailSubject ?? envelope.emailSubject;
    deps.outbox.add({
      kind,
      to: recipient.email,
      toName: recipient.name,
      subject: kind === 'envelope-completed' ? `Completed: ${subject}` : subject,
      body:
        kind === 'envelope-completed'
          ? `All parties have completed "${envelope.emailSubject}". The completed documents are attached.`
          : (recipient.emailBody ?? envelope.emailBlurb),
      links: links(envelope, recipient),
      accountId: envelope.accountId,
      envelopeId: envelope.id,
      recipientId: recipient.recipientId,
    });
  }

  /** Everyone who must act has: the envelope is completed, and its carbon copies with it (they get the documents). */
  function complete(
    envelope: EnvelopeRecord,
    recipients: RecipientRecord[],
    record: RecordEvent,
    actor: Actor,
    at: { now: number; links: Links },
  ): void {
    const { now, links } = at;
    envelope.status = 'completed';
    envelope.completedAt = now;
    envelope.statusChangedAt = now;
    envelopes.updateEnvelope(envelope);
    for (const copy of recipients.filter((r) => !mustAct(r) && r.status !== 'completed')) {
      copy.status = 'completed';
      copy.signedAt = now;
      envelopes.updateRecipient(copy);
      record('recipient-completed', envelope, copy, serviceActor);
      notify(envelope, copy, 'envelope-completed', links);
    }
    record('envelope-completed', envelope, null, actor);
  }

  /**
   * Sends the next routing order (routing.ts decides who), passing at once
   * over orders of carbon copies only, and completes the envelope when
   * everyone who must act has: carbon copies are then `completed` too and
   * get the completed documents (an outbox message), as DocuSign sends them.
   */
  function advance(envelope: EnvelopeRecord, recipients: RecipientRecord[], record: RecordEvent, actor: Actor): void {
    const now = clock.now();
    const links = deps.notificationLinks();
    for (;;) {
      const batch = nextToSend(recipients);
      if (batch.length === 0) break;
      // The envelope's workflow may hold this order (a schedule, a delay, a pause): resume() sends it later.
      const firstSend = recipients.every((r) => r.status === 'created');
      if (deps.workflowGate && !deps.workflowGate(envelope, batch[0]!.routingOrder, firstSend)) return;
      for (const recipient of batch) {
        deps.resolvePlaceholder?.(envelope, recipient, recipients);
        recipient.status = 'sent';
        recipient.sentAt = now;
        envelopes.updateRecipient(recipient);
        // The service sends, not whoever's request set the routing going (the sender's call, or the previous
        // signer's browser): DocuSign's certificate gives no IP or browser for a recipient's "sent".
        record('recipient-sent', envelope, recipient, serviceActor);
        notify(envelope, recipient, 'envelope-notification', links);
      }
      if (batch.some(mustAct)) return;
    }
    if (recipients.some((r) => r.status === 'created') || !everyoneActed(recipients)) return;
    complete(envelope, recipients, record, actor, { now, links });
  }

  return {
    advance,

    sendInTransaction(envelope, recipients, record, actor) {
      const now = clock.now();
      envelope.status = 'sent';
      envelope.sentAt = now;
      envelope.statusChangedAt = now;
      envelopes.updateEnvelope(envelope);
      record('envelope-sent', envelope, null, actor);
      advance(envelope, recipients, record, actor);
    },

    deliverEnvelope(envelope, now, record, actor) {
      if (envelope.status !== 'sent') return;
      envelope.status = 'delivered';
      envelope.deliveredAt = now;
      envelope.statusChangedAt = now;
      envelopes.updateEnvelope(envelope);
      record('envelope-delivered', envelope, null, actor);
    },
  };
}
