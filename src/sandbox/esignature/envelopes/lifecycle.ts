import { isSettledEnvelope, recipientHasActed } from '../../../envelope/statuses.js';
import type { Tabs } from '../../../envelope/index.js';
import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import type { Clock } from '../../platform/clock.js';
import type { Outbox } from '../../platform/outbox.js';
import type { SandboxEvents, SandboxEvent } from './events.js';
import type {
  EnvelopesRepository,
  EnvelopeRecord,
  RecipientRecord,
  DocumentRecord,
  CustomFieldRecord,
} from './repository.js';
import type { EventsRepository, SandboxEventType } from './events-repository.js';
import { everyoneActed, mustAct, nextToSend, witnessedStillToSign } from './routing.js';

/** Who did something, for the certificate's audit trail. */
export interface Actor {
  ip?: string | null;
  userAgent?: string | null;
}

/** The service itself, acting on its own (sending to the next routing order): no IP, no browser. */
const serviceActor: Actor = {};

/** Why a lifecycle step was refused. */
export type LifecycleRefusal = 'envelope-not-found' | 'recipient-not-found' | 'not-in-sequence' | 'invalid-state';

/** Thrown by lifecycle steps that do not apply (e.g. signing for a recipient whose turn has not come). */
export class LifecycleError extends Error {
  readonly reason: LifecycleRefusal;
  constructor(reason: LifecycleRefusal, message: string) {
    super(message);
    this.name = 'LifecycleError';
    this.reason = reason;
  }
}

/** What the lifecycle needs. */
export interface LifecycleDeps {
  db: SandboxDatabase;
  envelopes: EnvelopesRepository;
  eventsTable: EventsRepository;
  blobs: BlobStore;
  outbox: Outbox;
  clock: Clock;
  emitter: SandboxEvents;
  /** Links to put in a remote (non-embedded) recipient's notification; the signing plugin may provide them. */
  notificationLinks: () => (envelope: EnvelopeRecord, recipient: RecipientRecord) => string[];
  /** Fills a placeholder recipient of conditional routing whose turn has come (conditional-routing.ts). Default: nothing. */
  resolvePlaceholder?: (
    envelope: EnvelopeRecord,
    recipient: RecipientRecord,
    recipients: readonly RecipientRecord[],
  ) => void;
  /**
   * May this routing order be sent now (envelope-workflow.ts: scheduled
   * sending, delayed routing, pauses)? `firstSend`: nobody has been sent yet.
   * Default: always.
   */
  workflowGate?: (envelope: EnvelopeRecord, routingOrder: number, firstSend: boolean) => boolean;
}

/**
 * The envelope lifecycle: sent → delivered (first view opened) → completed
 * (everyone who must act has) | declined | voided. Routing order is
 * enforced as routing.ts decides: recipients of the lowest pending routing
 * order are `sent` together; the next order is sent only when everyone of
 * the previous one who must act has completed.
 *
 * Every step runs in one SQLite transaction, writes its events to the events
 * table (read by the certificate) and emits them on `services.events` after
 * the commit.
 */
export type Lifecycle = ReturnType<typeof createLifecycle>;

/** Records one event inside a step: to the events table now, to the emitter after the commit. */
type RecordEvent = (
  type: SandboxEventType,
  envelope: EnvelopeRecord,
  recipient: RecipientRecord | null,
  actor: Actor,
  details?: Record<string, unknown>,
) => void;

export function createLifecycle(deps: LifecycleDeps) {
  const { db, envelopes, eventsTable, clock, emitter } = deps;

  /** A recorder that writes each event to the events table now and collects it in `pending` for the emitter. */
  function recorderInto(pending: SandboxEvent[]): RecordEvent {
    return (type, envelope, recipient, actor, details) => {
      const at = clock.now();
      eventsTable.add({
        envelopeId: envelope.id,
        accountId: envelope.accountId,
        recipientId: recipient?.recipientId ?? null,
        type,
        at,
        ip: actor.ip ?? null,
        userAgent: actor.userAgent ?? null,
        details: details ?? null,
      });
      pending.push({
        type,
        envelopeId: envelope.id,
        accountId: envelope.accountId,
        ...(recipient ? { recipientId: recipient.recipientId } : {}),
        at: new Date(at).toISOString(),
      });
    };
  }

  // Made once: better-sqlite3 builds a wrapper per db.transaction() call. Nested, it is a savepoint.
  const inTransaction = db.transaction((work: () => unknown) => work());

  /** Runs `work` in a transaction, collecting events; emits them once committed. */
  function step<T>(work: (record: RecordEvent) => T): T {
    const pending: SandboxEvent[] = [];
    const result = inTransaction(() => work(recorderInto(pending))) as T;
    for (const event of pending) emitter.emit('event', event);
    return result;
  }

  /** Creation time of the last envelope committed (see createWork). */
  let lastCreatedAt = 0;

  /** Creations waiting for the next group commit (createSoon). */
  let queued: Array<{
    work: (record: RecordEvent) => EnvelopeRecord;
    resolve: (stored: EnvelopeRecord) => void;
    reject: (error: unknown) => void;
  }> = [];

  /**
   * Group commit: the creations queued during one turn of the event loop go
   * in one transaction, each in its own savepoint (one that fails is rolled
   * back alone and rejects alone). The commit is most of a creation's SQLite
   * cost, and under load several requests finish parsing in the same turn.
   * Every promise settles after the commit, so nothing is answered before
   * it is durable; events are emitted after the commit, as in `step`.
   */
  function flushQueued(): void {
    const batch = queued;
    queued = [];
    const pending: SandboxEvent[] = [];
    const outcomes: Array<{ stored: EnvelopeRecord } | { error: unknown }> = [];
    try {
      inTransaction(() => {
        for (const item of batch) {
          const own: SandboxEvent[] = [];
          try {
            outcomes.push({ stored: inTransaction(() => item.work(recorderInto(own))) as EnvelopeRecord });
            pending.push(...own);
          } catch (error) {
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const event of pending) {
      try {
        emitter.emit('event', event);
      } catch (error) {
        // The creations are committed: they must be answered 201 (a client
        // told otherwise would create them again), and a throw here would
        // end the process. A listener's fault is reported, not propagated.
        process.emitWarning(error instanceof Error ? error : String(error), { code: 'SIGNRUN_SANDBOX_EVENT_LISTENER' });
      }
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('stored' in outcome) item.resolve(outcome.stored);
      else item.reject(outcome.error);
    });
  }

  function createWork(
    envelope: EnvelopeRecord,
    recipients: RecipientRecord[],
    documents: DocumentRecord[],
    customFields: CustomFieldRecord[],
    actor: Actor,
  ) {
    return (record: RecordEvent): EnvelopeRecord => {
      const requested = envelope.status;
      // The creation time is taken at commit and strictly increases, so the
      // order of creation times is the order in which creations become
      // visible: what runners racing for one identity rely on to agree on
      // the earliest draft (docs/exactly-once.md, "Runners racing").
      const at = Math.max(clock.now(), lastCreatedAt + 1);
      lastCreatedAt = at;
      envelope.createdAt = at;
      envelope.statusChangedAt = at;
      envelopes.insert({ ...envelope, status: 'created' }, recipients, documents, customFields);
      const stored: EnvelopeRecord = { ...envelope, status: 'created' };
      if (requested === 'sent') sendInTransaction(stored, recipients, record, actor);
      return stored;
    };
  }

  /** The envelope's first view or signature moves it from `sent` to `delivered`; later ones change nothing. */
  function deliverEnvelope(envelope: EnvelopeRecord, now: number, record: RecordEvent, actor: Actor): void {
    if (envelope.status !== 'sent') return;
    envelope.status = 'delivered';
    envelope.deliveredAt = now;
    envelope.statusChangedAt = now;
    envelopes.updateEnvelope(envelope);
    record('envelope-delivered', envelope, null, actor);
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
   * The message a recipient gets: when its turn comes (`envelope-notification`)
   * or, for a carbon copy, with the completed documents (`envelope-completed`).
   * DocuSign sends no email to embedded recipients (clientUserId): the
   * client's own application shows them the view.
   */
  function notify(
    envelope: EnvelopeRecord,
    recipient: RecipientRecord,
    kind: 'envelope-notification' | 'envelope-completed',
    links: (envelope: EnvelopeRecord, recipient: RecipientRecord) => string[],
  ): void {
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

  function sendInTransaction(
    envelope: EnvelopeRecord,
    recipients: RecipientRecord[],
    record: RecordEvent,
    actor: Actor,
  ): void {
    const now = clock.now();
    envelope.status = 'sent';
    envelope.sentAt = now;
    envelope.statusChangedAt = now;
    envelopes.updateEnvelope(envelope);
    record('envelope-sent', envelope, null, actor);
    advance(envelope, recipients, record, actor);
  }

  function load(
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
        advance(envelope, envelopes.recipients(envelopeId), record, serviceActor);
      });
    },

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
      return step(createWork(envelope, recipients, documents, customFields, actor));
    },

    /**
     * As `create`, committed with the other creations of this turn of the
     * event loop (group commit, see flushQueued); resolves once committed.
     */
    createSoon(
      envelope: EnvelopeRecord,
      recipients: RecipientRecord[],
      documents: DocumentRecord[],
      customFields: CustomFieldRecord[],
      actor: Actor = {},
    ): Promise<EnvelopeRecord> {
      return new Promise((resolve, reject) => {
        queued.push({ work: createWork(envelope, recipients, documents, customFields, actor), resolve, reject });
        if (queued.length === 1) setImmediate(flushQueued);
      });
    },

    /**
     * Moves a draft to the recycle bin (DocuSign deletes drafts there):
     * status `deleted`, never sendable. Anything but a draft is refused.
     */
    discardDraft(envelopeId: string): EnvelopeRecord {
      return step(() => {
        const envelope = envelopes.getById(envelopeId);
        if (!envelope) throw new LifecycleError('envelope-not-found', `envelope ${envelopeId} does not exist`);
        if (envelope.status !== 'created')
          throw new LifecycleError('invalid-state', `envelope ${envelopeId} is ${envelope.status}, not a draft`);
        envelope.status = 'deleted';
        envelope.statusChangedAt = clock.now();
        envelopes.updateEnvelope(envelope);
        return envelope;
      });
    },

    /** Sends a draft (`created`) envelope. */
    send(envelopeId: string, actor: Actor = {}): EnvelopeRecord {
      return step((record) => {
        const envelope = envelopes.getById(envelopeId);
        if (!envelope) throw new LifecycleError('envelope-not-found', `envelope ${envelopeId} does not exist`);
        if (envelope.status !== 'created')
          throw new LifecycleError('invalid-state', `envelope ${envelopeId} is ${envelope.status}, not a draft`);
        sendInTransaction(envelope, envelopes.recipients(envelopeId), record, actor);
        return envelope;
      });
    },

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
        deliverEnvelope(envelope, now, record, actor);
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
        deliverEnvelope(envelope, now, record, options);
        advance(envelope, recipients, record, options);
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

    /** Voids an envelope that is not yet completed or declined. */
    void(envelopeId: string, reason: string, actor: Actor = {}): EnvelopeRecord {
      return step((record) => {
        const envelope = envelopes.getById(envelopeId);
        if (!envelope) throw new LifecycleError('envelope-not-found', `envelope ${envelopeId} does not exist`);
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
