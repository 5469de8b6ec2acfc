// The sandbox's built document worker (dist/), with a gate for tests of the
// pool (test/sandbox/document-work-pool.test.ts): a document named `held…`,
// a JSON or multipart body that holds the text `"held-body"`, a signature
// `held…` to stamp, a portfolio of a `held…` document, the certificate of an
// envelope whose subject starts `held`, or a task of an op the test holds by
// name (a bit of the gate's third cell) keeps its thread busy, as a long
// conversion does, until the test opens the gate (workerData.gate: an
// Int32Array on shared memory, its first cell set to 1); a document named
// `grow…` allocates until the thread passes its memory limit.
// Everything else is the real worker's work.
import { workerData } from 'node:worker_threads';
import documentWorker from '../../../dist/sandbox/esignature/document-work/document-worker.js';

const gate = new Int32Array(workerData.gate);

const heldBody = Buffer.from('"held-body"');
const holdableOps = workerData.holdableOps;
const holds = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes(heldBody);

function isHeld(task) {
  const byName = holdableOps.indexOf(task.op);
  if (byName >= 0 && (Atomics.load(gate, 2) & (1 << byName)) !== 0) return true;
  if (task.op === 'convert') return task.document.name.startsWith('held');
  if (task.op === 'json' || task.op === 'multipart') return holds(task.bytes);
  if (task.op === 'stamp') return task.stamps.some((s) => s.name.startsWith('held'));
  if (task.op === 'portfolio') return task.documents.some((d) => d.name.startsWith('held'));
  if (task.op === 'certificate') return task.input.envelope.emailSubject.startsWith('held');
  return false;
}

export default function gatedDocumentWorker(task) {
  const name = task.op === 'convert' ? task.document.name : '';
  if (isHeld(task)) {
    Atomics.add(gate, 1, 1); // a thread holds a document (the test may wait for it)
    Atomics.notify(gate, 1);
    // Busy as a conversion is: this thread answers nothing until the gate opens (woken at once by notify;
    // the wait is cut in slices so that the pool can end the thread at a deadline).
    while (Atomics.load(gate, 0) === 0) Atomics.wait(gate, 0, 0, 50);
  }
  if (name.startsWith('grow')) {
    const kept = [];
    for (;;) kept.push(new Array(1_000_000).fill(kept.length));
  }
  return documentWorker(task);
}
