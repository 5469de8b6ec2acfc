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

/** A gate on the built worker's threads (gated-document-worker.mjs). */
export interface WorkerGate {
  /** Resolves once a thread holds a document named `held…` (the held count reached `count`). */
  held(count?: number): Promise<void>;
  /** Lets every held document go on to its real conversion. */
  open(): void;
}

/**
 * The sandbox's document pool on the built worker (dist/, so `npm run build`
 * first: the pool runs compiled JavaScript in its threads, as `serve` does),
 * through a gate the test holds. Fails when no built worker is there rather
 * than doing the work inline.
 */
export function builtDocumentWork(
  options: Omit<DocumentWorkOptions, 'script' | 'workerData'> & {
    /** Tasks of these ops are held at the gate whatever their bytes (a DocGen DOCX's merge fields). */
    holdOps?: DocumentTask['op'][];
  } = {},
): {
  work: DocumentWork;
  gate: WorkerGate;
} {
  const shared = new SharedArrayBuffer(8);
  const cells = new Int32Array(shared);
  const { holdOps, ...pool } = options;
  const work = createDocumentWork({
    ...pool,
    script: new URL('./gated-document-worker.mjs', import.meta.url),
    workerData: { gate: shared, holdOps },
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
  };
  return { work, gate };
}
