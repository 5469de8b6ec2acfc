// Worker thread of PdfFactsReader (pdf-facts-reader.ts): reads the batches of
// PDFs it is sent and posts their facts back, in the same order, null for a
// file the main thread took first (each file's flag in `taken`).
import { parentPort } from 'node:worker_threads';
import { readPdfFacts, type PdfFactsResult } from './pdf-facts.js';

async function readBatch(batch: { id: number; paths: string[]; taken: Int32Array }): Promise<void> {
  const results: Array<PdfFactsResult | null> = [];
  for (const [i, path] of batch.paths.entries())
    results.push(Atomics.compareExchange(batch.taken, i, 0, 1) === 0 ? await readPdfFacts(path) : null);
  parentPort?.postMessage({ id: batch.id, results });
}

// A failure ends the worker ('error' there): the main thread reads what it did not deliver.
parentPort?.on('message', (batch: Parameters<typeof readBatch>[0]) => void readBatch(batch));
