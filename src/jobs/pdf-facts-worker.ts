// Worker thread of PdfFactsReader.prefetch: reads the PDFs it is given and
// posts their facts back, in the same order.
import { parentPort, workerData } from 'node:worker_threads';
import { readPdfFacts, type PdfFactsResult } from './pdf-facts.js';

const results: PdfFactsResult[] = [];
for (const path of workerData as string[]) results.push(await readPdfFacts(path));
parentPort?.postMessage(results);
