import { isSettledEnvelope, recipientHasActed } from '../../../envelope/statuses.js';
import type { Tabs } from '../../../envelope/index.js';
import type {
  EnvelopesRepository,
  EnvelopeRecord,
  RecipientRecord,
  DocumentRecord,
  CustomFieldRecord,
} from './repository.js';
import { mustAct, witnessedStillToSign } from './routing.js';
import { LifecycleError, serviceActor, type Actor, type LifecycleDeps } from './lifecycle-contract.js';
import { lifecycleTransactions, type LifecycleTransactions } from './lifecycle-transactions.js';
import { lifecycleRouting, type LifecycleRouting } from './lifecycle-routing.js';
import { lifecycleCreation } from './lifecycle-creation.js';

export { LifecycleError } from './lifecycle-contract.js';
export type { Actor, LifecycleDeps, LifecycleRefusal } from './lifecycle-contract.js';

/**
 * The envelope lifecycle: sent → delivered (first view opened) → completed
 * (everyone who must act has) | declined | voided. Routing order is
 * enforced as routing.ts decides: recipients of the lowest pending routing
 * order are `sent` together; the next order is sent only when everyone of
 * the previous one who must act has completed.
 *
 * Every step runs in one SQLite transaction, writes its events to the events
 * table (read by the certificate) and emits them on `services.events` after
 * the commit (lifecycle-transactions.ts). Its parts: creation with group
 * commit (lifecycle-creation.ts), the routing every step shares
 * (lifecycle-routing.ts), the steps on a whole envelope and those of one
 * recipient (below).
 */
export type Lifecycle = ReturnType<typeof createLifecycle>;

export function createLifecycle(deps: LifecycleDeps) {
  const transactions = lifecycleTransactions(deps);
  const routing = lifecycleRouting(deps);
  const creation = lifecycleCreation(deps, transactions, routing);
  return {
    /**
     * Stores a new envelope (bytes already in the blob store) and, when its
     * status is `sent`, sends it: one transaction, so a crash leaves either
     * nothing or the whole sent envelope.
     */
    create(
      envelope: EnvelopeRecord,
      recipients: RecipientRecord[],
      documents: DocumentRecord[],
      customFields: CustomFieldRecord[],
      actor: Actor = {},
    ): EnvelopeRecord {
      return creation.create({ envelope, recipients, documents, customFields, actor });
    },

    /**
     * As `create`, committed with the other creations of this turn of the
     * event loop (group commit, lifecycle-creation.ts); resolves once committed.
     */
    createSoon(
      envelope: EnvelopeRecord,
      recipients: RecipientRecord[],
      documents: DocumentRecord[],
      customFields: CustomFieldRecord[],
      actor: Actor = {},
    ): Promise<EnvelopeRecord> {
      return creation.createSoon({ envelope, recipients, documents, customFields, actor });
    },
    /** Adds a hook run inside each change's transaction before COMMIT (lifecycle-transactions.ts). */
    beforeCommit: transactions.beforeCommit,
    ...envelopeSteps(deps, transactions, routing),
    ...recipientSteps(deps, transactions, routing),
  };
}

/** Steps on a whole envelope: resume a held routing, discard a draft, send a draft, void. */
function envelopeSteps(deps: LifecycleDeps, { step }: LifecycleTransactions, routing: LifecycleRouting) {
  const { envelopes, clock } = deps;
  const existing = (envelopeId: string): EnvelopeRecord => {
    const envelope = envelopes.getById(envelopeId);
    if (!envelope) throw new LifecycleError('envelope-not-found', `envelope ${envelopeId} does not exist`);
    return envelope;
  };
  const draft = (envelopeId: string): EnvelopeRecord => {
    const envelope = existing(envelopeId);
    if (envelope.status !== 'created')
      throw new LifecycleError('invalid-state', `envelope ${envelopeId} is ${envelope.status}, not a draft`);
    return envelope;
  };
  return {
    /**
     * Sends on an envelope its workflow held (a schedule or delay whose time
     * has come, a pause lifted): the routing goes on from where it stopped.
     * Nothing for an envelope that is not under way.
     */
    resume(envelopeId: string): void {
      step((record) => {
        const envelope = envelopes.getById(envelopeId);
        if (!envelope || (envelope.status !== 'sent' && envelope.status !== 'delivered')) return;
        routing.advance(envelope, envelopes.recipients(envelopeId), record, serviceActor);
      });
    },

    /**
     * Moves a draft to the recycle bin (DocuSign deletes drafts there):
     * status `deleted`, never sendable. Anything but a draft is refused.
     */
    discardDraft(envelopeId: string): EnvelopeRecord {
      return step(() => {
        const envelope = draft(envelopeId);
        envelope.status = 'deleted';
        envelope.statusChangedAt = clock.now();
        envelopes.updateEnvelope(envelope);
        return envelope;
      });
    },

    /** Sends a draft (`created`) envelope. */
    send(envelopeId: string, actor: Actor = {}): EnvelopeRecord {
      return step((record) => {
        const envelope = draft(envelopeId);
        routing.sendInTransaction(envelope, envelopes.recipients(envelopeId), record, actor);
        return envelope;
      });
    },

    /** Voids an envelope that is not yet completed or declined. */
    void(envelopeId: string, reason: string, actor: Actor = {}): EnvelopeRecord {
      return step((record) => {
        const envelope = existing(envelopeId);
        if (isSettledEnvelope(envelope.status)) {
          throw new LifecycleError(
            'invalid-state',
            `envelope ${envelopeId} is ${envelope.status} and cannot be voided`,
          );
        }
        const now = clock.now();
        envelope.status = 'voided';
        envelope.voidedAt = now;
        envelope.voidedReason = reason;
        envelope.statusChangedAt = now;
        envelopes.updateEnvelope(envelope);
        record('envelope-voided', envelope, null, actor, { reason });
        return envelope;
      });
    },
  };
}

/** The envelope, its recipients and the one named; refused when either does not exist. */
function loadRecipient(
  envelopes: EnvelopesRepository,
  envelopeId: string,
  recipientId: string,
): { envelope: EnvelopeRecord; recipients: RecipientRecord[]; recipient: RecipientRecord } {
  const envelope = envelopes.getById(envelopeId);
  if (!envelope) throw new LifecycleError('envelope-not-found', `envelope ${envelopeId} does not exist`);
  const recipients = envelopes.recipients(envelopeId);
  const recipient = recipients.find((r) => r.recipientId === recipientId);
  if (!recipient)
    throw new LifecycleError('recipient-not-found', `recipient ${recipientId} is not in envelope ${envelopeId}`);
  return { envelope, recipients, recipient };
}

/** Refuses a recipient's step unless the envelope is under way, its turn has come and it has not acted yet. */
function requireTurn(envelope: EnvelopeRecord, recipient: RecipientRecord, recipients: RecipientRecord[]): void {
  if (envelope.status !== 'sent' && envelope.status !== 'delivered') {
    throw new LifecycleError('invalid-state', `envelope ${envelope.id} is ${envelope.status}`);
  }
  if (recipient.status === 'created')
    throw new LifecycleError('not-in-sequence', `recipient ${recipient.recipientId}'s routing order has not come`);
  const witnessed = witnessedStillToSign(recipient, recipients);
  if (witnessed !== undefined)
    throw new LifecycleError(
      'not-in-sequence',
      `recipient ${recipient.recipientId} witnesses recipient ${witnessed.recipientId}, who has not signed yet`,
    );
  if (recipientHasActed(recipient.status)) {
    throw new LifecycleError(
      'invalid-state',
      `recipient ${recipient.recipientId} has already ${recipient.status === 'completed' ? 'signed' : 'declined'}`,
    );
  }
}

/** Steps of one recipient whose turn has come: opened the view, signed (or acted), declined. */
function recipientSteps(deps: LifecycleDeps, { step }: LifecycleTransactions, routing: LifecycleRouting) {
  const { envelopes, clock } = deps;
  const load = (envelopeId: string, recipientId: string) => loadRecipient(envelopes, envelopeId, recipientId);
  return {
    /** The recipient opened the signing view: recipient `delivered`, and the envelope too on its first view. */
    markDelivered(envelopeId: string, recipientId: string, actor: Actor = {}): void {
      step((record) => {
        const { envelope, recipients, recipient } = load(envelopeId, recipientId);
        requireTurn(envelope, recipient, recipients);
        const now = clock.now();
        if (recipient.status === 'sent') {
          recipient.status = 'delivered';
          recipient.deliveredAt = now;
          envelopes.updateRecipient(recipient);
          record('recipient-delivered', envelope, recipient, actor);
        }
        routing.deliverEnvelope(envelope, now, record, actor);
      });
    },

    /**
     * The recipient signed, or acted without signing (a certified delivery
     * viewed, an editor, agent or intermediary passed the envelope on).
     * `documents` (documentId → stamped PDF bytes)
     * become the current versions; the originals are kept. `tabs`, when
     * given, are the recipient's tabs with their final values. Sends the next
     * routing order, or completes the envelope.
     */
    markSigned(
      envelopeId: string,
      recipientId: string,
      options: Actor & { documents?: Map<string, Buffer>; tabs?: Tabs } = {},
    ): void {
      // Bytes go to the blob store before the transaction that points at them.
      const versions = [...(options.documents ?? new Map<string, Buffer>())].map(([documentId, bytes]) => ({
        documentId,
        sha256: deps.blobs.put(bytes),
        size: bytes.length,
      }));
      step((record) => {
        const { envelope, recipients, recipient } = load(envelopeId, recipientId);
        requireTurn(envelope, recipient, recipients);
        // A carbon copy only receives: there is nothing for it to complete.
        if (!mustAct(recipient))
          throw new LifecycleError('invalid-state', `recipient ${recipientId} is a carbon copy and does not act`);
        const now = clock.now();
        if (recipient.status === 'sent') {
          recipient.deliveredAt = now;
          record('recipient-delivered', envelope, recipient, options);
        }
        recipient.status = 'completed';
        recipient.signedAt = now;
        envelopes.updateRecipient(recipient);
        if (options.tabs !== undefined) {
          recipient.tabs = options.tabs;
          envelopes.updateRecipientTabs(envelopeId, recipientId, options.tabs);
        }
        const known = new Set(envelopes.documents(envelopeId).map((d) => d.documentId));
        for (const v of versions) {
          if (!known.has(v.documentId))
            throw new LifecycleError('invalid-state', `document ${v.documentId} is not in envelope ${envelopeId}`);
          envelopes.replaceDocumentVersion(envelopeId, v.documentId, v.sha256, v.size, null);
        }
        record('recipient-completed', envelope, recipient, options);
        routing.deliverEnvelope(envelope, now, record, options);
        routing.advance(envelope, recipients, record, options);
      });
    },

    /** The recipient declined: the envelope is declined and nobody else is asked. */
    markDeclined(envelopeId: string, recipientId: string, options: Actor & { reason?: string } = {}): void {
      step((record) => {
        const { envelope, recipients, recipient } = load(envelopeId, recipientId);
        requireTurn(envelope, recipient, recipients);
        const now = clock.now();
        recipient.status = 'declined';
        recipient.declinedAt = now;
        recipient.declinedReason = options.reason ?? null;
        envelopes.updateRecipient(recipient);
        record(
          'recipient-declined',
          envelope,
          recipient,
          options,
          options.reason ? { reason: options.reason } : undefined,
        );
        envelope.status = 'declined';
        envelope.declinedAt = now;
        envelope.statusChangedAt = now;
        envelopes.updateEnvelope(envelope);
        record('envelope-declined', envelope, null, options);
      });
    },
  };
}
