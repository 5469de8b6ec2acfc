import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Location } from './blob-packs.js';
import type { BlobWriterAnswer, BlobWriterData, BlobWriterRequest } from './blob-writer-protocol.js';

/** What a put on the writer's thread gives back: the sha256, and the record when it wrote one. */
export interface WrittenBlob {
  sha256: string;
  at?: Location;
}

export interface BlobWriter {
  /** Hashes and appends a copy of the bytes on the thread; settles once the record is whole in its pack. */
  put(bytes: Uint8Array): Promise<WrittenBlob>;
  /** Tells the thread the folder holds these bytes now (appended by the main thread): it does not write them again. */
  known(sha256: string): void;
  /** Ends the thread once the puts asked before are answered (its pack closed). */
  close(): void;
}

/**
 * A data folder's blob writer on a thread of its own (blob-writer-worker.ts):
 * a creation's documents are hashed and appended there, not on the event loop.
 * Undefined where no compiled thread exists (the TypeScript test runner): the
 * store then writes on this thread, as it always did. A thread that fails
 * fails the puts in flight and then every later one (the store falls back to
 * this thread: `alive()` false).
 */
export function startBlobWriter(
  root: string,
  known: Iterable<string>,
  script: URL = new URL('./blob-writer-worker.js', import.meta.url),
): (BlobWriter & { alive(): boolean }) | undefined {
  if (!existsSync(fileURLToPath(script))) return undefined;
  const workerData: BlobWriterData = { root, known: [...known] };
  const worker = new Worker(script, { workerData });
  // A store never closed (a test's, a killed CLI's) does not keep its process alive for the thread.
  worker.unref();
  const pending = new Map<number, { resolve: (w: WrittenBlob) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let alive = true;
  worker.on('message', (message: BlobWriterAnswer) => {
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.kind === 'put')
      waiter.resolve(
        message.at === undefined ? { sha256: message.sha256 } : { sha256: message.sha256, at: message.at },
      );
    else
      waiter.reject(
        Object.assign(new Error(message.message), message.code === undefined ? {} : { code: message.code }),
      );
  });
  const fail = (error: Error) => {
    alive = false;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the blob writer thread ended')));
  const send = (request: BlobWriterRequest, transfer?: ArrayBuffer[]) => worker.postMessage(request, transfer);
  return {
    alive: () => alive,
    put(bytes) {
      if (!alive) return Promise.reject(new Error('the blob writer thread ended'));
      // A copy the thread owns, moved to it: the caller keeps reading its own bytes, and a view into a
      // larger buffer (the request body's) does not send the whole of it.
      const copy = new Uint8Array(bytes);
      const id = nextId++;
      return new Promise<WrittenBlob>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ kind: 'put', id, bytes: copy }, [copy.buffer]);
      });
    },
    known(sha256) {
      if (alive) send({ kind: 'known', sha256 });
    },
    close() {
      if (alive) send({ kind: 'close' });
    },
  };
}
