import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SandboxDatabase } from './open-database.js';
import { checkpointerCounters, type CheckpointerData, type CheckpointerMessage } from './wal-checkpointer-protocol.js';

/** What the checkpointer's thread has done (health and tests). */
export interface CheckpointerStats {
  /** PASSIVE checkpoints the thread ran. */
  checkpoints: number;
  /** Frames in the WAL at the last of them. */
  walFrames: number;
  /** Times the WAL passed its limit and the main connection checkpointed itself. */
  reliefs: number;
  /** Looks at the WAL index that read its figures. */
  indexReads: number;
}

/** The counts of `CheckpointerStats` that only grow, which `until` can wait on. */
export type CheckpointerCount = 'checkpoints' | 'reliefs' | 'indexReads';

export interface WalCheckpointer {
  /** Settles once the thread has taken the checkpoints over (true), or failed before (false). */
  ready: Promise<boolean>;
  stats(): CheckpointerStats;
  /**
   * Resolves once the thread's `count` is at least `atLeast`: the thread wakes
   * it (Atomics.notify on the shared counters), nothing is polled.
   */
  until(count: CheckpointerCount, atLeast: number): Promise<void>;
  /** Emits `autocheckpoint` (pages) each time the main connection's own autocheckpoint was set at the thread's word. */
  events: EventEmitter;
  /** Ends the thread (its connection closed); the main connection's own autocheckpoint is not needed after. */
  close(): void;
  /** Settles once the thread has ended (its connection closed). */
  closed: Promise<void>;
}

export interface WalCheckpointerOptions {
  /** The compiled thread (wal-checkpoint-worker.js beside this file); tests pass the built one. */
  script?: URL;
  /** Milliseconds between two looks at the WAL index. Default 10. */
  intervalMs?: number;
  /** Frames committed and not yet copied that make a checkpoint. Default 1,000, as SQLite's own autocheckpoint. */
  framesPerCheckpoint?: number;
  /** WAL frames past which the main connection checkpoints once itself. Default 32,768 (128 MiB of 4 KiB pages). */
  walFramesLimit?: number;
}

/** Atomics.waitAsync: in Node since 16, in TypeScript's lib only from ES2024 (this project's is ES2023). */
const atomics = Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string };
};

/** SQLite's default autocheckpoint, in pages: the main connection's while the thread is not there. */
const ownAutocheckpointPages = 1000;

/**
 * Moves a file database's WAL checkpoints off the event loop: a worker thread
 * with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)` once
 * `framesPerCheckpoint` frames wait to be copied, and once it has started the main connection's autocheckpoint
 * is turned off. Until then, if the thread fails, and when the WAL passes
 * `walFramesLimit` (commits that never pause leave the copy always a little
 * behind, and the WAL starts again only from a write that finds every frame
 * copied), the main connection checkpoints as it always did, so the WAL
 * stays bounded. Nothing in the file changes: crash safety is SQLite's WAL
 * replay either way. Without a compiled thread (under the TypeScript test
 * runner) nothing is started: undefined.
 */
export function startWalCheckpointer(
  db: SandboxDatabase,
  file: string,
  options: WalCheckpointerOptions = {},
): WalCheckpointer | undefined {
  const script = options.script ?? new URL('./wal-checkpoint-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(script))) return undefined;
  const counters = new SharedArrayBuffer(checkpointerCounters.length * Int32Array.BYTES_PER_ELEMENT);
  const workerData: CheckpointerData = {
    file,
    intervalMs: options.intervalMs ?? 10,
    framesPerCheckpoint: options.framesPerCheckpoint ?? ownAutocheckpointPages,
    walFramesLimit: options.walFramesLimit ?? 32_768,
    counters,
  };
  const worker = new Worker(script, { workerData });
  // A sandbox never closed (a test's, a killed CLI's) does not keep its process alive for the thread.
  worker.unref();
  let closed = false;
  const events = new EventEmitter();
  const ownCheckpoints = (pages: number) => {
    if (closed || !db.open) return;
    db.pragma(`wal_autocheckpoint = ${pages}`);
    events.emit('autocheckpoint', pages);
  };
  let settle: (tookOver: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => (settle = resolve));
  worker.on('message', (message: CheckpointerMessage) => {
    if (message.kind === 'ready') ownCheckpoints(0);
    else if (message.kind === 'autocheckpoint') ownCheckpoints(message.pages);
    if (message.kind === 'ready') settle(true);
  });
  // A thread that fails leaves the checkpoints to the main connection, as before it started.
  const giveBack = () => {
    ownCheckpoints(ownAutocheckpointPages);
    settle(false);
  };
  worker.on('error', giveBack);
  const closedThread = new Promise<void>((resolve) =>
    worker.on('exit', () => {
      giveBack();
      resolve();
    }),
  );
  const shared = new Int32Array(counters);
  const until = async (count: CheckpointerCount, atLeast: number) => {
    const index = checkpointerCounters[count];
    for (let now = Atomics.load(shared, index); now < atLeast; now = Atomics.load(shared, index)) {
      // Sleeps until the thread's Atomics.notify on this count (or at once if it moved since the load).
      const wait = atomics.waitAsync(shared, index, now);
      if (wait.async) await wait.value;
    }
  };
  return {
    ready,
    until,
    events,
    closed: closedThread,
    stats: () => ({
      checkpoints: Atomics.load(shared, checkpointerCounters.checkpoints),
      walFrames: Atomics.load(shared, checkpointerCounters.walFrames),
      reliefs: Atomics.load(shared, checkpointerCounters.reliefs),
      indexReads: Atomics.load(shared, checkpointerCounters.indexReads),
    }),
    close: () => {
      if (closed) return;
      closed = true;
      worker.postMessage({ kind: 'close' } satisfies CheckpointerMessage);
    },
  };
}
