import { existsSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readPdfFacts, type PdfFactsResult } from './pdf-facts.js';

/**
 * Reads PDF facts, cached by absolute path. Files named ahead
 * ({@link PdfFactsReader.prefetch}) are read on a worker thread while this
 * thread goes on expanding rows; {@link PdfFactsReader.whenRead} reads here
 * what the worker has not reached yet.
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
   * The facts of a prefetched file, once read: by the worker, which reads
   * each batch from its start, or here when it is next and the worker has
   * not taken it. While the worker reads it, this thread reads the last
   * files not taken yet, from the end, letting the event loop turn every few
   * files (`between` is called there: it may throw to stop). Asked in the
   * order they were prefetched, both threads read until the last file, and
   * this one checks the envelopes whose files are in meanwhile (issue 37:
   * reading every file before checking one left the worker idle while this
   * thread checked 10,000 envelopes).
   */
  whenRead(path: string, between?: (done: number) => void): Promise<PdfFactsResult>;
  /**
   * Starts the worker thread now, before any file is named: a forEach over
   * a CSV whose rows name its documents (`file: letters/${row.id}.pdf`) is a
   * campaign of many files, and the worker's start (a Node isolate of its
   * own) then runs beside the reading of the CSV and the first rows instead
   * of after them (issue 37).
   */
  warmUp(): void;
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
  result: Promise<PdfFactsResult> | undefined;
  /** Who waits for a file the worker is reading. */
  waiting: ((result: Promise<PdfFactsResult>) => void) | undefined;
  /** Its batch and place there, once sent to the worker. */
  batch: Batch | undefined;
  index: number;
}

/**
 * Every entry made with all its fields, in one order: entries whose fields
 * were added as they came (result, then batch, or batch then result) had
 * hidden classes of their own, and the optimised code of the checking loop
 * that reads them was thrown away and compiled again for each new one
 * (issue 37: `--trace-deopt`, "wrong map" in whenRead inlined into the
 * chunk's checks).
 */
const newEntry = (): Entry => ({ result: undefined, waiting: undefined, batch: undefined, index: -1 });

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

  const settled = (entry: Entry, result: Promise<PdfFactsResult>): void => {
    entry.result = result;
    entry.waiting?.(result);
    entry.waiting = undefined;
  };
  /** The facts of a file the worker is reading, when its batch's message comes. */
  const delivered = (entry: Entry): Promise<PdfFactsResult> =>
    new Promise<PdfFactsResult>((resolve) => {
      const before = entry.waiting;
      entry.waiting = (result) => {
        before?.(result);
        resolve(result);
      };
    });
  /** Takes a file the worker has not taken: true when this thread is to read it. */
  const take = (entry: Entry): boolean =>
    entry.result === undefined &&
    (entry.batch === undefined || Atomics.compareExchange(entry.batch.taken, entry.index, 0, 1) === 0);

  const read = ((path: string) => {
    let entry = cache.get(path);
    if (!entry) {
      entry = newEntry();
      cache.set(path, entry);
    }
    if (take(entry)) settled(entry, readPdfFacts(path));
    if (entry.result) return entry.result;
    // The worker is reading it: its batch's message brings it.
    return delivered(entry);
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

  read.warmUp = () => {
    if (!worker && !workerFailed) start();
  };

  read.prefetch = (path) => {
    if (cache.has(path)) return;
    cache.set(path, newEntry());
    pending.push(path);
    prefetched = true;
    if (!worker && !workerFailed && cache.size >= workerThreshold) start();
    if (pending.length >= batchSize) send();
  };

  /** The files this thread reads while the worker reads the one it waits for: the last sent, not yet taken. */
  let stealing: string[] = [];
  let stolen = 0;
  /** Files were prefetched since the last whenRead: what to read from the end is made again. */
  let prefetched = false;

  read.whenRead = async (path, between) => {
    if (prefetched) {
      prefetched = false;
      send();
      stealing = [...batches.values()].flatMap((b) => b.paths);
      // Without a worker, what is not sent is read on demand.
      pending = [];
    }
    const entry = cache.get(path)!;
    while (entry.result === undefined) {
      if (take(entry)) {
        settled(entry, readPdfFacts(path));
        break;
      }
      let other: string | undefined;
      while (stealing.length > 0 && other === undefined) {
        const last = stealing.pop()!;
        if (take(cache.get(last)!)) other = last;
      }
      if (other === undefined) {
        // Nothing left to read here: the worker's message about this file comes in a later turn.
        await delivered(entry);
        break;
      }
      settled(cache.get(other)!, readPdfFacts(other));
      if (++stolen % turnEvery === 0) {
        await nextTurn();
        between?.(stolen);
      }
    }
    return entry.result!;
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
