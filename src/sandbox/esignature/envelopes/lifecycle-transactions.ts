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
  /**
   * Adds a hook called inside each step's and each group commit's
   * transaction, after its work and before COMMIT, with the events it
   * wrote: what must be committed with those events (Connect's queue and
   * cursor) goes into the same commit instead of a transaction of its own.
   * A hook that throws fails the step, so a hook catches what it can survive.
   * Returns what removes the hook.
   */
  beforeCommit: (hook: BeforeCommitHook) => () => void;
  /** Calls the hooks (the group commit calls it at the end of its transaction). */
  runBeforeCommit: (events: readonly SandboxEvent[]) => void;
}

/** Called before COMMIT with the events the transaction wrote (see LifecycleTransactions.beforeCommit). */
export type BeforeCommitHook = (events: readonly SandboxEvent[]) => void;

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

  const hooks: BeforeCommitHook[] = [];
  function runBeforeCommit(events: readonly SandboxEvent[]): void {
    if (events.length === 0) return;
    for (const hook of hooks) hook(events);
  }

  function step<T>(work: (record: RecordEvent) => T): T {
    const pending: SandboxEvent[] = [];
    const result = inTransaction(() => {
      const done = work(recorderInto(pending));
      runBeforeCommit(pending);
      return done;
    }) as T;
    for (const event of pending) emitter.emit('event', event);
    return result;
  }

  function beforeCommit(hook: BeforeCommitHook): () => void {
    hooks.push(hook);
    return () => {
      const at = hooks.indexOf(hook);
      if (at >= 0) hooks.splice(at, 1);
    };
  }

  return { inTransaction, recorderInto, step, beforeCommit, runBeforeCommit };
}
