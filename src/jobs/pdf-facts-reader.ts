import { existsSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readPdfFacts, type PdfFactsResult } from './pdf-facts.js';

/**
 * Reads PDF facts, cached by absolute path. Files named ahead
 * ({@link PdfFactsReader.prefetch}) are read on a worker thread while this
 * thread goes on expanding rows; {@link PdfFactsReader.settle} reads here
 * whatever the worker has not reached yet.
 */
export interface PdfFactsReader {
  (path: string): Promise<PdfFactsResult>;
  /**
   * A file that will be read (confined already: see confined-path.ts). From
   * `workerThreshold` distinct files on (the per-row PDFs of a big forEach),
   * a worker thread reads them in batches; below, or when the worker cannot
   * start, they are read on demand.
   */
  prefetch(path: string): void;
  /**
   * Reads on this thread, from the end, the prefetched files the worker has
   * not taken, letting the event loop turn every few files (`between` is
   * called there: it may throw to stop), then waits for the worker's.
   */
  settle(between?: (done: number) => void): Promise<void>;
  /** Ends the worker thread, if any. */
  close(): void;
}

/** Fewer files than this are not worth a worker's start-up (~40 ms). */
export const workerThreshold = 256;

/** Files sent to the worker at a time: each batch is one message there and one back. */
const batchSize = 64;

/** Files read here between two turns of the event loop while settling (the worker's replies come in those turns). */
const turnEvery = 16;

interface Entry {
  /** Its facts once read (or being read, pdf-lib deciding); undefined while the worker may still take it. */
  result?: Promise<PdfFactsResult>;
  /** Who waits for a file the worker is reading (settle() waits for whole batches instead). */
  waiting?: (result: Promise<PdfFactsResult>) => void;
  /** Its batch and place there, once sent to the worker. */
  batch?: Batch;
  index?: number;
}

interface Batch {
  id: number;
  paths: string[];
  /** One flag a file, set by whichever thread takes it first (Atomics): a file is read by one thread only. */
  taken: Int32Array;
}

/**
 * One reader per load keeps the cache from outliving the files it
 * describes: a forEach of 10,000 envelopes sharing one PDF reads it once,
 * and 10,000 per-row PDFs are read on the worker while the rows expand
 * (issue 37: reading them after the expansion, half here, made the main
 * thread the sum of both).
 */
export function pdfFactsReader(): PdfFactsReader {
  const cache = new Map<string, Entry>();
  /** Prefetched, not yet sent to the worker (all of them while there is no worker). */
  let pending: string[] = [];
  const batches = new Map<number, Batch>();
  let nextBatch = 0;
  let worker: Worker | undefined;
  let workerFailed = false;
  let waiting: (() => void) | undefined;

  const settled = (entry: Entry, result: Promise<PdfFactsResult>): void => {
    entry.result = result;
    entry.waiting?.(result);
    entry.waiting = undefined;
  };
  /** Takes a file the worker has not taken: true when this thread is to read it. */
  const take = (entry: Entry): boolean =>
    entry.result === undefined &&
    (entry.batch === undefined || Atomics.compareExchange(entry.batch.taken, entry.index!, 0, 1) === 0);

  const read = ((path: string) => {
    let entry = cache.get(path);
    if (!entry) {
      entry = {};
      cache.set(path, entry);
    }
    if (take(entry)) settled(entry, readPdfFacts(path));
    if (entry.result) return entry.result;
    // The worker is reading it: its batch's message brings it.
    return new Promise<PdfFactsResult>((resolve) => (entry.waiting = resolve));
  }) as PdfFactsReader;

  const send = (): void => {
    if (!worker || pending.length === 0) return;
    const batch: Batch = {
      id: nextBatch++,
      paths: pending,
      taken: new Int32Array(new SharedArrayBuffer(4 * pending.length)),
    };
    pending.forEach((path, index) => {
      const entry = cache.get(path)!;
      entry.batch = batch;
      entry.index = index;
    });
    batches.set(batch.id, batch);
    pending = [];
    worker.postMessage({ id: batch.id, paths: batch.paths, taken: batch.taken });
  };

  const received = (message: { id: number; results: Array<PdfFactsResult | null> }): void => {
    const batch = batches.get(message.id);
    if (!batch) return;
    batches.delete(message.id);
    batch.paths.forEach((path, i) => {
      const result = message.results[i];
      if (result) settled(cache.get(path)!, Promise.resolve(result));
    });
    if (batches.size === 0) waiting?.();
  };

  /** Whatever the worker did not deliver is read here. */
  const failed = (): void => {
    if (workerFailed) return;
    workerFailed = true;
    worker = undefined;
    const undelivered = [...batches.values()].flatMap((b) => b.paths);
    batches.clear();
    for (const path of undelivered) {
      const entry = cache.get(path)!;
      if (entry.result === undefined) settled(entry, readPdfFacts(path));
    }
    waiting?.();
  };

  const start = (): void => {
    // The worker runs the compiled file; under a TypeScript test runner there is none, and nothing is lost.
    const script = new URL('./pdf-facts-worker.js', import.meta.url);
    if (!existsSync(fileURLToPath(script))) {
      workerFailed = true;
      return;
    }
    worker = new Worker(script);
    worker.unref();
    worker.on('message', received);
    worker.once('error', failed);
    worker.once('exit', failed);
  };

  read.prefetch = (path) => {
    if (cache.has(path)) return;
    cache.set(path, {});
    pending.push(path);
    if (!worker && !workerFailed && cache.size >= workerThreshold) start();
    if (pending.length >= batchSize) send();
  };

  read.settle = async (between) => {
    send();
    // From the end of what was sent: the worker reads each batch from its start.
    const order = [...batches.values()].flatMap((b) => b.paths).reverse();
    let done = 0;
    for (const path of [...pending, ...order]) {
      const entry = cache.get(path)!;
      if (!take(entry)) continue;
      settled(entry, readPdfFacts(path));
      if (++done % turnEvery === 0) {
        await nextTurn();
        between?.(done);
      }
    }
    pending = [];
    if (batches.size > 0) await new Promise<void>((resolve) => (waiting = resolve));
    waiting = undefined;
  };

  read.close = () => {
    const ending = worker;
    worker = undefined;
    workerFailed = true;
    ending?.removeAllListeners();
    void ending?.terminate();
  };
  return read;
}
