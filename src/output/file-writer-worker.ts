// The file writer's thread (file-writer.ts): a run's per-envelope files
// (envelope.json, signing.json) are opened, written, flushed, closed and
// renamed here, and their folders made, rather than on the event loop the
// sandbox's answers wait on (BENCHMARKS "s50-writer"). The calls are Node's
// asynchronous ones, several files at a time: fsyncs issued together share
// the file system's journal commits, which one file after the other
// (synchronous calls) do not; the thread fell behind on a busy disk.
import { close, fsync, mkdir, open, rename, rm, write } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
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
// The callback calls, promisified: a file descriptor each, no FileHandle object per file.
const openFile = promisify(open);
const writeTo = promisify(write);
const flush = promisify(fsync);
const closeFile = promisify(close);
const renameFile = promisify(rename);
const makeDir = promisify(mkdir);
const remove = promisify(rm);

/** Creates the temp file; when its folder was removed meanwhile, makes it again once (as the main thread's path does). */
async function openTemp(temp: string, mode: number): Promise<number> {
  try {
    return await openFile(temp, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await makeDir(path.dirname(temp), { recursive: true });
    return openFile(temp, 'wx', mode);
  }
}

async function writeAll(fd: number, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < bytes.byteLength)
    offset += (await writeTo(fd, bytes, offset, bytes.byteLength - offset)).bytesWritten;
}

/** Temp file, fsync, rename: the file is whole in place, or absent and its temp file removed. */
async function writeWhole({ target, temp, data, mode }: FileWriteRequest): Promise<void> {
  const fd = await openTemp(temp, mode);
  try {
    try {
      await writeAll(fd, data);
      await flush(fd);
    } finally {
      await closeFile(fd);
    }
    await renameFile(temp, target);
  } catch (error) {
    await remove(temp, { force: true });
    throw error;
  }
}

/** Makes one folder level: true when made, false when something was there already (the main thread looks at it). */
async function makeFolder(folder: string): Promise<boolean> {
  try {
    await makeDir(folder);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function answer(message: FileWriteAnswer): void {
  parentPort?.postMessage(message);
}

async function handle(request: FileWriterRequest): Promise<FileWriteAnswer> {
  // BUSY counts the requests in hand, and is raised before STOP is read; the main thread sets STOP before
  // it reads BUSY (all sequentially consistent): either this thread sees STOP and makes no temp file, or
  // the main thread sees BUSY and waits for this file to be renamed or removed before it removes the temp
  // files left.
  Atomics.add(control, BUSY, 1);
  try {
    // Stopping: the process ends at once; nothing more is written (the answer says so to whoever is left).
    if (Atomics.load(control, STOP) === 1) throw new Error('not written: the process is stopping at once');
    if (request.kind === 'folder') return { id: request.id, ok: true, made: await makeFolder(request.folder) };
    await writeWhole(request);
    return { id: request.id, ok: true };
  } catch (error) {
    const { message, code } = error as NodeJS.ErrnoException;
    return { id: request.id, ok: false, message: String(message), ...(code === undefined ? {} : { code }) };
  } finally {
    Atomics.sub(control, BUSY, 1);
    Atomics.notify(control, BUSY);
  }
}

/**
 * Requests in hand at most: enough for fsyncs to share journal commits, few
 * enough that a stop (the process ending at once) waits for a handful of
 * files, not for every one queued.
 */
const MAX_IN_HAND = 16;
const waiting: FileWriterRequest[] = [];
let next = 0;
let inHand = 0;

function pump(): void {
  while (inHand < MAX_IN_HAND && next < waiting.length) {
    const request = waiting[next] as FileWriterRequest;
    next += 1;
    inHand += 1;
    void handle(request).then((message) => {
      answer(message);
      inHand -= 1;
      pump();
    });
  }
  if (next === waiting.length) {
    waiting.length = 0;
    next = 0;
  }
}

parentPort?.on('message', (request: FileWriterRequest) => {
  waiting.push(request);
  pump();
});
