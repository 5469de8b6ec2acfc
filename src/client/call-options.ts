import type { Readable } from 'node:stream';
import type { AttemptBudget } from './retry-policy.js';
import type { DownloadExpectation } from './download-check.js';

/** Per-call options. */
export interface CallOptions {
  /** Copied into events (the runner passes `<job>/<key>`). */
  tag?: string;
  /** When every connection is busy, higher goes out first (see {@link ApiRequest.priority}). Default 0. */
  priority?: number;
  signal?: AbortSignal;
  /**
   * One budget for several calls of one operation (see {@link AttemptBudget}):
   * their requests together stay within its limit. Default: each call has the
   * retry policy's limit.
   */
  attempts?: AttemptBudget;
}

/** Options of a download: a call's, and what the body must be. */
export interface DownloadOptions extends CallOptions {
  /** Default `{ kind: 'pdf' }` with no announced size (the cap is then download-check.ts's maximum). */
  expect?: DownloadExpectation;
}

/** Size and sha256 of a file written from a download. */
export interface WrittenFile {
  size: number;
  sha256: string;
}

/** Receives a download body and writes it somewhere; called again when a download is retried. */
export type DownloadSink<T extends WrittenFile> = (body: Readable) => Promise<T>;
