import type { SandboxEvent } from './events.js';
import type { EnvelopeRecord, RecipientRecord, DocumentRecord, CustomFieldRecord } from './repository.js';
import type { Actor, LifecycleDeps, RecordEvent } from './lifecycle-contract.js';
import type { LifecycleTransactions } from './lifecycle-transactions.js';
import type { LifecycleRouting } from './lifecycle-routing.js';

/** What a new envelope is made of (bytes already in the blob store). */
interface NewEnvelope {
  envelope: EnvelopeRecord;
  recipients: RecipientRecord[];
  documents: DocumentRecord[];
  customFields: CustomFieldRecord[];
  actor: Actor;
}

/** A creation waiting for the next group commit. */
interface QueuedCreation {
  work: (record: RecordEvent) => EnvelopeRecord;
  resolve: (stored: EnvelopeRecord) => void;
  reject: (error: unknown) => void;
}

/** Envelope creation: alone (`create`) or with the other creations of this turn of the event loop (`createSoon`). */
export interface LifecycleCreation {
  create(made: NewEnvelope): EnvelopeRecord;
  createSoon(made: NewEnvelope): Promise<EnvelopeRecord>;
}

export function lifecycleCreation(
  deps: LifecycleDeps,
  transactions: LifecycleTransactions,
  routing: LifecycleRouting,
): LifecycleCreation {
  const { envelopes, clock, emitter } = deps;
  const { inTransaction, recorderInto, step, runBeforeCommit } = transactions;

  /** Creation time of the last envelope committed (see createWork). */
  let lastCreatedAt = 0;

  /** Creations waiting for the next group commit (createSoon). */
  let queued: QueuedCreation[] = [];

  function createWork({ envelope, recipients, documents, customFields, actor }: NewEnvelope) {
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
      if (requested === 'sent') routing.sendInTransaction(stored, recipients, record, actor);
      return stored;
    };
  }

  /** Emits a committed batch's events; a listener's fault is reported, never thrown (see flushQueued). */
  function emitCommitted(pending: SandboxEvent[]): void {
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
  }

  /**
   * Group commit: the creations queued during one turn of the event loop go
   * in one transaction, each in its own savepoint (one that fails is rolled
   * back alone and rejects alone). The commit is most of a creation's SQLite
   * cost, and under load several requests finish parsing in the same turn.
   * Every promise settles after the commit, so nothing is answered before
   * it is durable; events are emitted after the commit, as in `step`, and
   * the before-commit hooks (Connect's queue) run once for the whole batch.
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
        runBeforeCommit(pending);
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    emitCommitted(pending);
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('stored' in outcome) item.resolve(outcome.stored);
      else item.reject(outcome.error);
    });
  }

  return {
    create: (made) => step(createWork(made)),
    createSoon: (made) =>
      new Promise((resolve, reject) => {
        queued.push({ work: createWork(made), resolve, reject });
        if (queued.length === 1) setImmediate(flushQueued);
      }),
  };
}
