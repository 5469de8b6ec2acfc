import {
  createDocumentWork,
  type DocumentWorkOptions,
} from '../../../src/sandbox/esignature/document-work/document-work-pool.js';
import type { DocumentWork } from '../../../src/sandbox/esignature/document-work/document-work.js';
import type { DocumentTask } from '../../../src/sandbox/esignature/document-work/document-tasks.js';

/** Atomics.waitAsync (Node 20 has it; TypeScript's ES2023 lib does not name it). */
const waitAsync = (array: Int32Array, index: number, value: number): { value: Promise<string> | string } =>
  (
    Atomics as unknown as {
      waitAsync(array: Int32Array, index: number, value: number): { value: Promise<string> | string };
    }
  ).waitAsync(array, index, value);

/** The ops a gate can hold whatever their bytes, each a bit of the gate's third cell (gated-document-worker.mjs). */
export const holdableOps: DocumentTask['op'][] = ['mergeFields'];

/** A gate on the built worker's threads (gated-document-worker.mjs). */
export interface WorkerGate {
  /** Resolves once a thread holds a document named `held…` (the held count reached `count`). */
  held(count?: number): Promise<void>;
  /** Lets every held document go on to its real conversion. */
  open(): void;
  /** Tasks of these ops are held from now on, whatever their bytes (one of {@link holdableOps}). */
  hold(ops: DocumentTask['op'][]): void;
  /** Shut again, nothing held yet and no op held by name: for the next test on the same pool. */
  reset(): void;
}

/**
 * The sandbox's document pool on the built worker (dist/, so `npm run build`
 * first: the pool runs compiled JavaScript in its threads, as `serve` does),
 * through a gate the test holds. Fails when no built worker is there rather
 * than doing the work inline.
 */
export function builtDocumentWork(options: Omit<DocumentWorkOptions, 'script' | 'workerData'> = {}): {
  work: DocumentWork;
  gate: WorkerGate;
} {
  // [0] open (1) or shut (0); [1] how many tasks a thread has held; [2] the ops held by name (bits of holdableOps).
  const shared = new SharedArrayBuffer(12);
  const cells = new Int32Array(shared);
  const work = createDocumentWork({
    ...options,
    script: new URL('./gated-document-worker.mjs', import.meta.url),
    workerData: { gate: shared, holdableOps },
  });
  if (work.stats().mode !== 'threads') throw new Error('no document pool: run `npm run build` first');
  const gate: WorkerGate = {
    async held(count = 1) {
      // Waits off this thread (waitAsync): the event loop goes on answering while a thread is busy.
      for (let seen = Atomics.load(cells, 1); seen < count; seen = Atomics.load(cells, 1))
        await waitAsync(cells, 1, seen).value;
    },
    open() {
      Atomics.store(cells, 0, 1);
      Atomics.notify(cells, 0);
    },
    hold(ops) {
      const bits = ops.reduce((all, op) => {
        if (!holdableOps.includes(op)) throw new Error(`the gate holds no ${op} task by name`);
        return all | (1 << holdableOps.indexOf(op));
      }, 0);
      Atomics.store(cells, 2, bits);
    },
    reset() {
      Atomics.store(cells, 0, 0);
      Atomics.store(cells, 1, 0);
      Atomics.store(cells, 2, 0);
    },
  };
  return { work, gate };
}
