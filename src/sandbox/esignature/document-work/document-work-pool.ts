import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { taskValue, type DocumentTask, type DocumentTaskOutcome } from './document-tasks.js';
import { documentOperations, inlineDocumentWork, type DocumentWork, type TaskRunner } from './document-work.js';

/** How the pool works (each optional; the defaults are `serve`'s). */
export interface DocumentWorkOptions {
  /**
   * Most threads at once. Default: the machine's cores, at least 2, so that
   * one document at its deadline leaves a thread to everyone else.
   */
  threads?: number;
  /**
   * Milliseconds a task may take from when it is asked, its wait for a
   * thread included; then its thread is ended (and replaced) and its request
   * refused. Default 8,000: with the request's own decoding, the answer comes
   * within issue 36's 10 s.
   */
  deadlineMs?: number;
  /**
   * The signal that ends a task at its deadline, asked once per task.
   * Default: `AbortSignal.timeout(deadlineMs)`. A test passes signals it
   * fires itself, so that "past its deadline" is a step it takes, not a
   * wait of seconds.
   */
  deadline?: () => AbortSignal;
  /**
   * Heap of one thread, MiB (V8's old generation: `resourceLimits`). A task
   * past it ends its thread (replaced) and its request is refused. Default
   * 384: the largest document DocuSign takes (25 MB) converts well within it.
   */
  memoryMb?: number;
  /** The compiled worker (document-worker.js beside this file); tests pass the built one. */
  script?: URL;
  /** Given to the worker script as `workerData` (a test's gate on the built worker). */
  workerData?: unknown;
  /**
   * Start one thread now and keep it (`serve`): the first document then finds
   * pdf.js, pdf-lib and mammoth compiled. Default false: the first thread
   * starts with the first task, and a pool that gets none costs nothing.
   */
  warm?: boolean;
}

const defaults = { deadlineMs: 8000, memoryMb: 384 };

/**
 * The sandbox's document work on a pool of worker threads (piscina):
 * threads are started as documents come (up to `threads`) and leave after a
 * minute idle; a warm pool (`serve`) starts one with the sandbox and keeps
 * it, with pdf.js, pdf-lib and mammoth compiled. Each task has a deadline and a memory
 * limit; a thread that passes either is ended and replaced, and its request
 * answered FORMAT_CONVERSION_ERROR, as DocuSign answers a document it cannot
 * convert. Without a compiled worker (under the TypeScript test runner) the
 * work is done on this thread.
 */
export function createDocumentWork(options: DocumentWorkOptions = {}): DocumentWork {
  const script = options.script ?? new URL('./document-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(script))) return inlineDocumentWork();
  const deadlineMs = options.deadlineMs ?? defaults.deadlineMs;
  const pool = new Piscina({
    filename: script.href,
    minThreads: options.warm === true ? 1 : 0,
    maxThreads: options.threads ?? Math.max(2, availableParallelism()),
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb ?? defaults.memoryMb },
    workerData: options.workerData,
  });
  let running = 0;
  let timedOut = 0;
  let outOfMemory = 0;
  const run: TaskRunner = async (task, bytes) => {
    const deadline = options.deadline?.() ?? AbortSignal.timeout(deadlineMs);
    running++;
    try {
      const outcome = (await pool.run(task, {
        signal: deadline,
        transferList: bytes.map((b) => b.buffer as ArrayBuffer),
      })) as DocumentTaskOutcome<never>;
      return taskValue(outcome);
    } catch (error) {
      if (deadline.aborted) {
        timedOut++;
        throw refused(task.op, `was not done within ${deadlineMs / 1000} s`);
      }
      if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        outOfMemory++;
        throw refused(task.op, 'needs more memory than the sandbox gives one document');
      }
      throw error;
    } finally {
      running--;
    }
  };
  return {
    ...documentOperations(run),
    stats: () => ({
      mode: 'threads',
      threads: pool.threads.length,
      running: Math.max(0, running - pool.queueSize),
      queued: pool.queueSize,
      timedOut,
      outOfMemory,
    }),
    close: () => pool.destroy(),
  };
}

/**
 * DocuSign's answer to a document it cannot convert (as pdf/document-intake.ts
 * gives for a RenditionError); for a JSON body, its answer to a body it
 * cannot read.
 */
function refused(op: DocumentTask['op'], why: string): ApiError {
  if (op === 'json') return apiErrors.invalidBody(`Reading the body ${why.replace('was not done', 'did not end')}.`);
  return new ApiError(400, 'FORMAT_CONVERSION_ERROR', `The data could not be converted: the document ${why}.`);
}
