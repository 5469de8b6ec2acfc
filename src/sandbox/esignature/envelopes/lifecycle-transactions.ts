import type { SandboxEvent } from './events.js';
import type { LifecycleDeps, RecordEvent } from './lifecycle-contract.js';

/** How every lifecycle step runs: in a transaction, its events written with it and emitted after the commit. */
export interface LifecycleTransactions {
  /** Runs `work` in a transaction (a savepoint when nested); better-sqlite3's wrapper, made once. */
  inTransaction: (work: () => unknown) => unknown;
  /** A recorder that writes each event to the events table now and collects it in `pending` for the emitter. */
  recorderInto: (pending: SandboxEvent[]) => RecordEvent;
  /** Runs `work` in a transaction, collecting events; emits them once committed. */
  step: <T>(work: (record: RecordEvent) => T) => T;
}

export function lifecycleTransactions(deps: LifecycleDeps): LifecycleTransactions {
  const { db, eventsTable, clock, emitter } = deps;

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

  function step<T>(work: (record: RecordEvent) => T): T {
    const pending: SandboxEvent[] = [];
    const result = inTransaction(() => work(recorderInto(pending))) as T;
    for (const event of pending) emitter.emit('event', event);
    return result;
  }

  return { inTransaction, recorderInto, step };
}
