// The blob writer's thread (blob-writer.ts): hashes a creation's document and
// appends it to a pack of the thread's own, so that the event loop spends
// neither the sha256 nor the write on it (together ~20% of the main thread's
// CPU a creation of a 100 KB PDF, BENCHMARKS "s49-sandbox"). One writer per
// pack, as between processes (blob-packs.ts): the main thread appends to its
// own pack, this thread to another.
import { createHash } from 'node:crypto';
import { closeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { appendRecord, openNewPack } from './blob-packs.js';
import type { BlobWriterAnswer, BlobWriterData, BlobWriterRequest } from './blob-writer-protocol.js';

const { root, known: knownAtStart } = workerData as BlobWriterData;
// What the folder holds (indexed by the main thread at start, appended by it since, written here):
// the same document sent again is not written again.
const known = new Set(knownAtStart);
let own: ReturnType<typeof openNewPack> | undefined;

function answer(message: BlobWriterAnswer): void {
  parentPort?.postMessage(message);
}

function put(id: number, bytes: Uint8Array): void {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (known.has(sha256)) return answer({ kind: 'put', id, sha256 });
  own ??= openNewPack(root);
  const at = appendRecord(own, sha256, bytes);
  known.add(sha256);
  answer({ kind: 'put', id, sha256, at });
}

parentPort?.on('message', (message: BlobWriterRequest) => {
  if (message.kind === 'known') known.add(message.sha256);
  else if (message.kind === 'put') {
    try {
      put(message.id, message.bytes);
    } catch (error) {
      const { message: text, code } = error as NodeJS.ErrnoException;
      answer({ kind: 'failed', id: message.id, message: String(text), ...(code === undefined ? {} : { code }) });
    }
  } else {
    if (own) closeSync(own.fd);
    own = undefined;
    parentPort?.close();
  }
});
