import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageText } from '../pdf/page-text.js';
import { limits } from './limits.js';
import { documentPdfBytes } from './pdf-facts.js';

/** A document's text, or why it was not read. */
export type DocumentText = { ok: true; pages: PageText[] } | { ok: false; reason: string; limit: boolean };

/** Reads documents' text for anchors, once per file (10,000 rows sharing one PDF read it once). */
export interface DocumentTextReader {
  (path: string): Promise<DocumentText>;
  /**
   * Starts reading on a worker thread: pdf.js is a large module, and
   * compiling it there while this thread parses the job files and expands
   * their rows takes it off the time `validate` is waited for. Called as
   * soon as a job file is seen to place a tab by anchor; without it, texts
   * are read on this thread.
   */
  warm(): void;
  /** Stops the worker, if one was started. */
  close(): void;
}

/** The reader of one load: a cache by path, and the worker once warmed. */
export function documentTextReader(): DocumentTextReader {
  const cache = new Map<string, Promise<DocumentText>>();
  let worker: TextWorker | undefined;
  const read = ((path: string) => {
    let found = cache.get(path);
    if (!found) {
      found = worker ? worker.read(path) : readDocumentText(path);
      cache.set(path, found);
    }
    return found;
  }) as DocumentTextReader;
  read.warm = () => {
    worker ??= startTextWorker();
  };
  read.close = () => worker?.close();
  return read;
}

interface TextWorker {
  read(path: string): Promise<DocumentText>;
  close(): void;
}

/** A worker that reads texts on request (document-text-worker.ts); reads here when it cannot start or fails. */
function startTextWorker(): TextWorker | undefined {
  // The worker runs the compiled file; under a TypeScript test runner there is none, and nothing is lost.
  const script = new URL('./document-text-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(script))) return undefined;
  const worker = new Worker(script);
  // It must never keep the process alive: a load that ends without asking anything lets it go.
  worker.unref();
  const waiting = new Map<number, { path: string; resolve: (text: DocumentText | Promise<DocumentText>) => void }>();
  let next = 0;
  let failed = false;
  const fallBack = () => {
    failed = true;
    for (const { path, resolve } of waiting.values()) resolve(readDocumentText(path));
    waiting.clear();
  };
  worker.on('message', ({ id, text }: { id: number; text: DocumentText }) => {
    waiting.get(id)?.resolve(text);
    waiting.delete(id);
  });
  worker.on('error', fallBack);
  worker.on('exit', () => {
    if (waiting.size > 0) fallBack();
  });
  return {
    read(path) {
      if (failed) return readDocumentText(path);
      const id = next++;
      return new Promise<DocumentText>((resolve) => {
        waiting.set(id, { path, resolve });
        worker.postMessage({ id, path });
      });
    },
    close() {
      void worker.terminate();
    },
  };
}

/**
 * Reads one document's text on this thread: a PDF's, or the PDF rendition's
 * of a DOCX, HTML or TXT. `bytesOf` gives the document's bytes (the file's,
 * or a Word letter generated from it: src/jobs/generated-text.ts); a failure
 * to give them is a reason, as any other.
 */
export async function readDocumentText(
  path: string,
  bytesOf: () => Buffer = () => readFileSync(path),
): Promise<DocumentText> {
  // Loaded on demand: pdf.js and pdf-lib are large, and only anchors need them.
  const { PageTextLimitError, readPageText } = await import('../pdf/page-text.js');
  try {
    // A converted document's text is its rendition's, as the service reads it for anchors.
    const pdf = await documentPdfBytes(path, bytesOf());
    if (!pdf.ok) return { ok: false, reason: pdf.reason, limit: false };
    const pages = await readPageText(pdf.pdf, {
      pages: limits.anchorTextPages,
      runs: limits.anchorTextRuns,
      milliseconds: limits.anchorTextMilliseconds,
    });
    return { ok: true, pages };
  } catch (error) {
    if (error instanceof PageTextLimitError) return { ok: false, reason: error.message, limit: true };
    return {
      ok: false,
      reason: (error instanceof Error ? error.message : String(error)).split('\n')[0]!,
      limit: false,
    };
  }
}
