import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  BUSY,
  STOP,
  type FileWriteAnswer,
  type FileWriterData,
  type FileWriterRequest,
} from './file-writer-protocol.js';

/** The writer's thread ended (or never started): the write was not answered, and goes the main thread's way. */
export class FileWriterGone extends Error {
  constructor() {
    super('the file writer thread ended');
    this.name = 'FileWriterGone';
  }
}

export interface FileWriterThread {
  /**
   * Writes `data` to `temp` on the thread (created exclusively with `mode`),
   * fsyncs and renames it to `target`: resolves once the file is durable in
   * place; rejects with the disk's error (its temp file removed), or with
   * {@link FileWriterGone} when the thread ended before it answered (its temp
   * file may be left: the caller removes it).
   */
  write(target: string, temp: string, data: string | Uint8Array, mode: number): Promise<void>;
  /**
   * Makes `folder` on the thread (one level, not following a link): true
   * when made, false when something was there already; rejects with the
   * disk's error, or {@link FileWriterGone}.
   */
  makeFolder(folder: string): Promise<boolean>;
  /** False once the thread has ended: every write then rejects with {@link FileWriterGone}. */
  alive(): boolean;
  /** Ends the thread once the writes asked are answered. */
  close(): void;
}

/** The thread's young generation, in MiB (see startFileWriter). */
const YOUNG_GENERATION_MB = 2;

/** Threads started and not ended: what {@link stopFileWritersNow} stops. */
const running = new Set<{ stopNow(): void }>();

/** How long an exit at once waits for the files a thread has in hand to be renamed or removed (a file is ~0.25 ms on a quiet disk). */
const STOP_WAIT_MS = 2000;

/**
 * Stops every file writer thread of the process from making another temp
 * file, and waits (blocking, at most 2 s) for the ones each has in hand to be
 * renamed or removed: for an exit that cannot wait for the writes in flight
 * (removeLiveTempFiles removes the temp files left after it).
 */
export function stopFileWritersNow(): void {
  for (const thread of running) thread.stopNow();
}

/**
 * A file writer on a thread of its own (file-writer-worker.ts). Undefined
 * where no compiled thread exists (the TypeScript test runner) or one cannot
 * be made: files are then written on this thread, as they always were. The
 * thread holds the process open only while writes are in flight.
 */
export function startFileWriter(
  script: URL = new URL('./file-writer-worker.js', import.meta.url),
): FileWriterThread | undefined {
  if (!existsSync(fileURLToPath(script))) return undefined;
  const control = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const flags = new Int32Array(control);
  const workerData: FileWriterData = { control };
  let worker: Worker;
  try {
    // A small young generation: the thread's garbage is a string and a buffer a file, and V8's default
    // semi-spaces (16 MiB) would take up to 48 MiB for it.
    worker = new Worker(script, { workerData, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  } catch {
    return undefined;
  }
  worker.unref();
  const pending = new Map<number, { resolve: (made: boolean) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let alive = true;
  let closing = false;
  const settled = () => {
    if (pending.size > 0) return;
    worker.unref();
    if (closing) void worker.terminate();
  };
  const handle = {
    stopNow() {
      Atomics.store(flags, STOP, 1);
      // BUSY counts the files the thread has in hand; each it finishes lowers it and wakes this wait.
      const deadline = Date.now() + STOP_WAIT_MS;
      for (let inHand = Atomics.load(flags, BUSY); inHand > 0; inHand = Atomics.load(flags, BUSY)) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        Atomics.wait(flags, BUSY, inHand, left);
      }
      running.delete(handle);
    },
  };
  running.add(handle);
  worker.on('message', (message: FileWriteAnswer) => {
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.made === true);
    else
      waiter.reject(
        Object.assign(new Error(message.message), message.code === undefined ? {} : { code: message.code }),
      );
    settled();
  });
  const ended = () => {
    alive = false;
    running.delete(handle);
    for (const { reject } of pending.values()) reject(new FileWriterGone());
    pending.clear();
    worker.unref();
  };
  worker.on('error', ended);
  worker.on('exit', ended);
  const ask = (request: FileWriterRequest, transfer: ArrayBuffer[] = []) => {
    if (!alive) return Promise.reject(new FileWriterGone());
    return new Promise<boolean>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request, transfer);
    });
  };
  return {
    alive: () => alive,
    async write(target, temp, data, mode) {
      // Bytes go as a copy the thread owns, moved to it: a view into a larger buffer (a pooled Buffer's)
      // would otherwise send, or detach, the whole of it. A string is cloned as it is and encoded there.
      const copy = typeof data === 'string' ? data : new Uint8Array(data);
      await ask(
        { kind: 'write', id: nextId++, target, temp, data: copy, mode },
        typeof copy === 'string' ? [] : [copy.buffer],
      );
    },
    makeFolder(folder) {
      return ask({ kind: 'folder', id: nextId++, folder });
    },
    close() {
      closing = true;
      settled();
    },
  };
}
