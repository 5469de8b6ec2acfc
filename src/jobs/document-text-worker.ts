// Worker thread of DocumentTextReader (document-text.ts): reads one blank
// page at once, so that pdf.js and its own worker module are compiled while
// the main thread reads the job files, then reads the text of each document
// it is asked for and posts it back with the request's id.
import { parentPort } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';
import { readDocumentText } from './document-text.js';

const warmedUp = (async () => {
  const blank = await PDFDocument.create();
  blank.addPage();
  const { readPageText } = await import('../pdf/page-text.js');
  await readPageText(await blank.save());
})().catch(() => undefined);

parentPort?.on('message', ({ id, path }: { id: number; path: string }) => {
  void warmedUp.then(() => readDocumentText(path)).then((text) => parentPort?.postMessage({ id, text }));
});
