// The file writer's thread (file-writer.ts): a run's per-envelope files
// (envelope.json, signing.json) are opened, written, flushed, closed and
// renamed here, one synchronous call each, rather than as five promise-based
// calls on the event loop, whose JavaScript (file handles, promises,
// callbacks) held the runner's loop ~1.3 s of a 3,000-envelope run's 6.3 s
// while the sandbox's answers waited (BENCHMARKS "s50-writer"). A file takes
// ~0.25 ms here, fsync included: one thread keeps up with thousands a second.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import {
  BUSY,
  STOP,
  type FileWriteAnswer,
  type FileWriteRequest,
  type FileWriterData,
  type FileWriterRequest,
} from './file-writer-protocol.js';

const control = new Int32Array((workerData as FileWriterData).control);

/** Creates the temp file; when its folder was removed meanwhile, makes it again once (as the main thread's path does). */
function openTemp(temp: string, mode: number): number {
  try {
    return openSync(temp, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(path.dirname(temp), { recursive: true });
    return openSync(temp, 'wx', mode);
  }
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
}

/** Temp file, fsync, rename: the file is whole in place, or absent and its temp file removed. */
function writeWhole({ target, temp, data, mode }: FileWriteRequest): void {
  const fd = openTemp(temp, mode);
  try {
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Makes one folder level: true when made, false when something was there already (the main thread looks at it). */
function makeFolder(folder: string): boolean {
  try {
    mkdirSync(folder);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function answer(message: FileWriteAnswer): void {
  parentPort?.postMessage(message);
}

parentPort?.on('message', (request: FileWriterRequest) => {
  // BUSY before STOP is read, and the main thread sets STOP before it reads BUSY (both sequentially
  // consistent): either this thread sees STOP and makes no temp file, or the main thread sees BUSY and
  // waits for this file to be renamed or removed before it removes the temp files left.
  Atomics.store(control, BUSY, 1);
  try {
    // Stopping: the process ends at once; nothing more is written (the answer says so to whoever is left).
    if (Atomics.load(control, STOP) === 1) throw new Error('not written: the process is stopping at once');
    if (request.kind === 'folder') answer({ id: request.id, ok: true, made: makeFolder(request.folder) });
    else {
      writeWhole(request);
      answer({ id: request.id, ok: true });
    }
  } catch (error) {
    const { message, code } = error as NodeJS.ErrnoException;
    answer({ id: request.id, ok: false, message: String(message), ...(code === undefined ? {} : { code }) });
  } finally {
    Atomics.store(control, BUSY, 0);
    Atomics.notify(control, BUSY);
  }
});
