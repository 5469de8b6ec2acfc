/** What the blob writer's thread is given (blob-writer.ts, blob-writer-worker.ts). */
export interface BlobWriterData {
  /** The blob folder (`<dataDir>/blobs`), where the thread makes its own pack. */
  root: string;
  /** The sha256s the folder already holds: not written again. */
  known: string[];
}

/** Main thread → writer. `bytes` is a copy the writer owns (its ArrayBuffer moved, not cloned). */
export type BlobWriterRequest =
  { kind: 'put'; id: number; bytes: Uint8Array } | { kind: 'known'; sha256: string } | { kind: 'close' };

/**
 * Writer → main thread: a put's sha256, and where its record is when this put
 * wrote it (`at` undefined: the folder held those bytes already).
 */
export type BlobWriterAnswer =
  | { kind: 'put'; id: number; sha256: string; at?: { pack: string; offset: number; size: number } }
  | { kind: 'failed'; id: number; message: string; code?: string };
