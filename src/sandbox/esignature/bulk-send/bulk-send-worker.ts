import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { Lifecycle } from '../envelopes/lifecycle.js';
import type { BulkSendRepository } from './repository.js';
import { makeCopy, type CopyServices } from './bulk-copy.js';

/** What the worker needs of the sandbox. */
export type BulkSendWorkerDeps = CopyServices & {
  db: SandboxDatabase;
  lifecycle: Lifecycle;
  bulkSend: BulkSendRepository;
};

/** The background maker of a batch's copies. */
export interface BulkSendWorker {
  /** There is work: make the queued copies (a no-op while a pass is under way; it goes on until none is left). */
  kick(): void;
  /** Resolves once no copy is queued (or the worker is closed): for tests and shutdown, not for the API. */
  idle(): Promise<void>;
  /**
   * Holds the queue (as DocuSign's queue holds a batch while it is busy):
   * no copy is made until the returned release is called. For tests that
   * need a batch still queued at a given moment, without timers.
   */
  hold(): () => void;
  /** Stops between copies; queued copies stay queued and are made after the next start (`kick`). */
  close(): void;
}

/**
 * Makes the copies of sent batches in the background, a few per turn of the
 * event loop, as DocuSign queues a batch and sends its copies over time: the
 * send answers at once with every copy `queued`, the batch's counts move to
 * `sent` (or `failed`) as copies are made, and API requests (the client
 * polling the batch) are served in between. Each copy is created and marked
 * sent in one transaction, so a sandbox killed in the middle neither loses
 * nor repeats a copy: the queued ones are made after it starts again.
 */
export function createBulkSendWorker(deps: BulkSendWorkerDeps, options: { perTurn?: number } = {}): BulkSendWorker {
  const perTurn = options.perTurn ?? 20;
  let running = false;
  let again = false;
  let closed = false;
  let holds = 0;
  let waiters: Array<() => void> = [];

  const settle = () => {
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  async function pass(): Promise<void> {
    running = true;
    try {
      for (;;) {
        again = false;
        if (holds > 0) break;
        const work = deps.bulkSend.queued(perTurn);
        if (work.length === 0 || closed) break;
        for (const item of work) {
          if (closed) break;
          const batch = deps.bulkSend.batchById(item.batchId);
          if (!batch) continue;
          try {
            const made = await makeCopy(deps, batch, item.copy);
            deps.db.transaction(() => {
              const stored = deps.lifecycle.create(made.envelope, made.recipients, made.documents, made.customFields);
              deps.bulkSend.markSent(batch.id, item.position, stored.id, deps.clock.now());
            })();
          } catch (error) {
            if (closed) break;
            // A copy the service cannot make fails alone, with DocuSign's message (bulkSendErrorStatus).
            deps.bulkSend.markFailed(batch.id, item.position, (error as Error).message, deps.clock.now());
          }
        }
        // Let the API answer between turns (a client polling the batch's status).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      running = false;
      if (again && !closed) void pass();
      else settle();
    }
  }

  const worker: BulkSendWorker = {
    kick() {
      if (closed) return;
      if (running) again = true;
      else void pass();
    },
    idle() {
      if (!running || closed) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    hold() {
      holds += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        worker.kick();
      };
    },
    close() {
      closed = true;
      if (!running) settle();
    },
  };
  return worker;
}
