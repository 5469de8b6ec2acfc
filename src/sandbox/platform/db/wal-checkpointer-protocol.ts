/** What the WAL checkpointer's thread is given (wal-checkpointer.ts, wal-checkpoint-worker.ts). */
export interface CheckpointerData {
  /** The database file. */
  file: string;
  /** Milliseconds between two looks at the WAL index. */
  intervalMs: number;
  /** Frames committed and not yet copied that make a PASSIVE checkpoint. */
  framesPerCheckpoint: number;
  /** WAL frames past which the main connection's own autocheckpoint is asked back until the WAL starts again. */
  walFramesLimit: number;
  /** A SharedArrayBuffer of `checkpointerCounters.length` Int32s the thread counts in. */
  counters: SharedArrayBuffer;
}

/** Messages between the main thread and the checkpointer's. */
export type CheckpointerMessage = { kind: 'ready' } | { kind: 'autocheckpoint'; pages: number } | { kind: 'close' };

/** Index of each count in `CheckpointerData.counters`. */
export const checkpointerCounters = { checkpoints: 0, walFrames: 1, reliefs: 2, indexReads: 3, length: 4 } as const;
