/** What the file writer's thread is given (file-writer.ts, file-writer-worker.ts). */
export interface FileWriterData {
  /**
   * Two Int32 slots shared with the main thread: STOP, set by the main
   * thread when the process must end at once (no temp file is made after
   * it), and BUSY, how many requests the thread has in hand (the main
   * thread waits for none before removing temp files).
   */
  control: SharedArrayBuffer;
}

/** Slot of {@link FileWriterData.control}: 1 once the main thread stops the writer. */
export const STOP = 0;
/** Slot of {@link FileWriterData.control}: how many requests the thread has in hand (temp files it may have made). */
export const BUSY = 1;

/**
 * Main thread → writer: write `data` to `temp` (created exclusively, with
 * `mode`), fsync, close, rename it to `target`. A string is written as
 * UTF-8; bytes are a copy the writer owns (their ArrayBuffer moved).
 */
export interface FileWriteRequest {
  kind: 'write';
  id: number;
  target: string;
  temp: string;
  data: string | Uint8Array;
  mode: number;
}

/** Main thread → writer: make `folder` (one level, as mkdir does): answered with whether it was made or was there. */
export interface FolderRequest {
  kind: 'folder';
  id: number;
  folder: string;
}

export type FileWriterRequest = FileWriteRequest | FolderRequest;

/**
 * Writer → main thread: the file is in place, durable (or the folder made,
 * `made` true, or there already, false); or it is not, and its temp file is
 * gone.
 */
export type FileWriteAnswer =
  { id: number; ok: true; made?: boolean } | { id: number; ok: false; message: string; code?: string };
