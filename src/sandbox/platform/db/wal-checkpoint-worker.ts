// The sandbox's WAL checkpointer (wal-checkpointer.ts): a thread with its own
// connection to the data folder's database that copies the WAL's committed
// pages into the database file, so that the event loop never stops for that
// copy and its two fsyncs (32-62 ms each under load, BENCHMARKS
// "s47-sandbox"). A PASSIVE checkpoint takes no writer's lock: the main
// connection keeps committing while it runs, and a killed process leaves a
// WAL that SQLite replays at the next open, as with the main thread's own
// checkpoints.
import Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { checkpointerCounters, type CheckpointerData, type CheckpointerMessage } from './wal-checkpointer-protocol.js';

const { file, intervalMs, framesPerCheckpoint, walFramesLimit, counters } = workerData as CheckpointerData;
const db = new Database(file, { fileMustExist: true });
// Per connection: the checkpoint syncs the WAL before it copies and the database after, as the main connection's did.
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const shared = new Int32Array(counters);
/** Counts one more of `index` and wakes whoever waits on it (wal-checkpointer.ts: `until`, Atomics.waitAsync). */
function count(index: number): void {
  Atomics.add(shared, index, 1);
  Atomics.notify(shared, index);
}
let relieving = false;
let ticks = 0;

/**
 * Frames committed to the WAL and not yet copied, read from the WAL index
 * (`<file>-shm`, SQLite's documented format, walformat.html: the header's
 * `mxFrame` at byte 16, the checkpoint's `nBackfill` at 96, in this machine's
 * byte order), so that a checkpoint runs per `framesPerCheckpoint` frames, as
 * SQLite's own autocheckpoint does, and not on every tick: every checkpoint
 * that copies the whole WAL lets the next commit start the WAL again, and that
 * commit syncs the new WAL header on the event loop. Undefined when the index
 * does not read as expected.
 */
const walIndex = { fd: -1, bytes: Buffer.alloc(100) };
function framesNotCopied(): number | undefined {
  try {
    if (walIndex.fd < 0) walIndex.fd = openSync(`${file}-shm`, 'r');
    if (readSync(walIndex.fd, walIndex.bytes, 0, 100, 0) < 100) return undefined;
  } catch {
    return undefined;
  }
  const b = walIndex.bytes;
  const u32 = (at: number) => (endianness() === 'LE' ? b.readUInt32LE(at) : b.readUInt32BE(at));
  if (u32(0) !== 3007000 || b[12] !== 1) return undefined;
  count(checkpointerCounters.indexReads);
  return Math.max(0, u32(16) - u32(96));
}

function send(message: CheckpointerMessage): void {
  parentPort?.postMessage(message);
}

function tick(): void {
  ticks++;
  const waiting = framesNotCopied();
  // Without the index's figures: a checkpoint every tenth tick.
  if (waiting === undefined ? ticks % 10 === 0 : waiting >= framesPerCheckpoint) checkpointOnce();
}

function checkpointOnce(): void {
  const { log } = checkpoint.get() as { log: number };
  // -1: the checkpoint could not run (the main connection's own was running); nothing is known of the WAL.
  if (log < 0) return;
  Atomics.store(shared, checkpointerCounters.walFrames, log);
  count(checkpointerCounters.checkpoints);
  // The WAL starts again from its first frame only when a write begins with every frame copied; under
  // commits that never pause, the copy never catches up. Past the limit the main connection checkpoints
  // once more itself (a pause of the event loop, as before, but once per `walFramesLimit` frames).
  if (!relieving && log > walFramesLimit) {
    relieving = true;
    count(checkpointerCounters.reliefs);
    send({ kind: 'autocheckpoint', pages: 1000 });
  } else if (relieving && log <= walFramesLimit) {
    relieving = false;
    send({ kind: 'autocheckpoint', pages: 0 });
  }
}

const timer = setInterval(tick, intervalMs);
parentPort?.on('message', (message: CheckpointerMessage) => {
  if (message.kind !== 'close') return;
  clearInterval(timer);
  if (walIndex.fd >= 0) closeSync(walIndex.fd);
  db.close();
  parentPort?.close();
});
send({ kind: 'ready' });
