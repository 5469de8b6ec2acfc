import type { AnchorDocument, PageText, TabSize, TabToDraw } from '../../../pdf/index.js';
import type { MergeField } from '../../../pdf/docx-merge-fields.js';
import { parseFewParts, type MultipartPart } from '../../platform/http/multipart.js';
import { revivedJsonBody } from '../../platform/http/large-json-body.js';
import type { SignatureStamp } from '../../platform/pdf/stamp-signatures.js';
import type { SealOptions } from '../../platform/seal/seal-pdf.js';
import type { CertificateInput } from '../envelopes/documents/certificate.js';
import { documentPdf, needsConversion, type DocGenIntake } from '../envelopes/documents/document-intake.js';
import type { IncomingDocument } from '../envelopes/wire/envelope-definition.js';
import {
  asBuffer,
  runDocumentTask,
  taskValue,
  type DocumentTask,
  type DocumentTaskValues,
  type SealingKey,
} from './document-tasks.js';

/**
 * Where the sandbox does its work on bytes a client sent (conversion of a
 * DOCX, HTML or TXT document, reading a PDF's text for anchors, counting its
 * pages, parsing a large JSON body, stamping, sealing and combining PDFs,
 * listing a DocGen DOCX's merge fields, splitting a large multipart body,
 * writing the certificate of completion and a PDF portfolio):
 * a warm pool of worker threads (document-work-pool.ts) in `serve`,
 * this thread where no compiled worker exists (the TypeScript test runner).
 * Every call ends with its value or an ApiError; a document the pool had to
 * give up on (deadline, memory) is DocuSign's FORMAT_CONVERSION_ERROR.
 */
export interface DocumentWork {
  /**
   * The PDF the sandbox keeps of a creation request's document
   * (documents/document-intake.ts); a DocGen draft's DOCX is handed to
   * `docGen.keepSource` here, on the sandbox's thread, with the PDF made of it.
   */
  convert(document: IncomingDocument, docGen?: DocGenIntake): Promise<Buffer>;
  /** A PDF's text for anchors (the PDF layer's readDocumentText: none for one it cannot read). */
  readText(document: AnchorDocument): Promise<PageText[]>;
  /** A PDF's exact page count (pdf-lib); rejects when it cannot be parsed. */
  pageCount(bytes: Buffer): Promise<number>;
  /** Each page's size (pdf-lib), none when it cannot be parsed. */
  pageSizes(bytes: Uint8Array): Promise<TabSize[]>;
  /**
   * A JSON request body (platform/http/large-json-body.ts) with its
   * documents decoded into Buffers. `bytes` must own its ArrayBuffer, which
   * is moved to the thread (the caller no longer reads it).
   */
  parseJson(bytes: Uint8Array): Promise<unknown>;
  /** Signatures and the other tabs drawn into a PDF (platform/pdf/stamp-signatures.ts); TabPageError as there. */
  stamp(pdf: Uint8Array, stamps: SignatureStamp[], others: TabToDraw[]): Promise<Buffer>;
  /** A PDF sealed with the key (platform/seal/seal-pdf.ts). */
  seal(pdf: Uint8Array, key: SealingKey, options: SealOptions): Promise<Buffer>;
  /** PDFs concatenated into one (platform/pdf/combine.ts). */
  combine(parts: Uint8Array[]): Promise<Buffer>;
  /** A DocGen DOCX's merge fields (pdf/docx-merge-fields.ts). */
  mergeFields(docx: Uint8Array): Promise<MergeField[]>;
  /**
   * A multipart body's parts (platform/http/multipart.ts), none when it is
   * malformed. A body of up to `multipartOnLoopParts` parts is split here:
   * the split makes views of the body (0.15 ms for 6 MB in one part), the
   * trip to a thread copies it (146 ms of the loop's time for 6 MB, load 20).
   */
  splitMultipart(body: Buffer, contentType: string): Promise<MultipartPart[] | undefined>;
  /** The certificate of completion (envelopes/documents/certificate.ts). */
  certificate(input: CertificateInput): Promise<Buffer>;
  /** A PDF portfolio of the documents and the certificate (envelopes/documents/portfolio.ts). */
  portfolio(
    documents: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
    certificate: CertificateInput,
  ): Promise<Buffer>;
  /** What the pool is doing, for GET /sandbox/health. */
  stats(): DocumentWorkStats;
  /** Ends the pool's threads. */
  close(): Promise<void>;
}

/** The pool's state, as `GET /sandbox/health` answers it under `documentWork`. */
export interface DocumentWorkStats {
  /** `threads` (a worker pool) or `inline` (this thread). */
  mode: 'threads' | 'inline';
  /** Threads alive now. */
  threads: number;
  /** Tasks a thread is working on. */
  running: number;
  /** Tasks waiting for a thread. */
  queued: number;
  /** Tasks given up at their deadline (their thread ended and replaced). */
  timedOut: number;
  /** Tasks whose thread passed its memory limit (ended and replaced). */
  outOfMemory: number;
}

/** Runs a task, given how one is run (on this thread, or in the pool), moving the bytes given to the thread. */
export type TaskRunner = <K extends DocumentTask['op']>(
  task: Extract<DocumentTask, { op: K }>,
  bytesToMove: Uint8Array[],
) => Promise<DocumentTaskValues[K]>;

/** The operations on top of a task runner: one place turns calls into tasks. */
export function documentOperations(run: TaskRunner): Omit<DocumentWork, 'stats' | 'close'> {
  return {
    async convert(document, docGen = {}) {
      // A PDF is kept as sent: nothing to convert, and no trip to a thread for the hot path of creation.
      if (!needsConversion(document)) return documentPdf(document, docGen);
      const bytes = await movable(document.bytes);
      const task = { keepSource: docGen.keepSource !== undefined, detectMergeFields: docGen.detectMergeFields };
      const { pdf, keptSource } = await run(
        { op: 'convert', document: { ...document, bytes: bytes as Buffer }, docGen: task },
        [bytes],
      );
      const kept = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      // The caller's bytes are the DOCX as sent: the thread had a copy of them.
      if (keptSource) docGen.keepSource?.(kept, document.bytes);
      return kept;
    },
    async readText(document) {
      const bytes = await movable(document.bytes());
      return run({ op: 'text', bytes }, [bytes]);
    },
    async pageCount(bytes) {
      const own = await movable(bytes);
      return run({ op: 'pages', bytes: own }, [own]);
    },
    async pageSizes(bytes) {
      const own = await movable(bytes);
      return run({ op: 'pageSizes', bytes: own }, [own]);
    },
    async parseJson(bytes) {
      return revivedJsonBody(await run({ op: 'json', bytes }, [bytes]));
    },
    async stamp(pdf, stamps, others) {
      const own = await movable(pdf);
      return asBuffer(await run({ op: 'stamp', bytes: own, stamps, others }, [own]));
    },
    async seal(pdf, key, options) {
      const own = await movable(pdf);
      return asBuffer(await run({ op: 'seal', bytes: own, ca: key, options }, [own]));
    },
    async combine(parts) {
      const own = await Promise.all(parts.map(movable));
      return asBuffer(await run({ op: 'combine', parts: own }, own));
    },
    async mergeFields(docx) {
      const own = await movable(docx);
      return run({ op: 'mergeFields', bytes: own }, [own]);
    },
    async splitMultipart(body, contentType) {
      const few = parseFewParts(body, contentType, multipartOnLoopParts);
      if (few !== null) return few;
      const own = await movable(body);
      const parts = await run({ op: 'multipart', bytes: own, contentType }, [own]);
      // Structured cloning gives Uint8Arrays back: the routes read Buffers (no copy).
      return parts?.map((part) => ({ ...part, body: asBuffer(part.body) }));
    },
    async certificate(input) {
      return asBuffer(await run({ op: 'certificate', input }, []));
    },
    async portfolio(documents, certificate) {
      const own = await Promise.all(documents.map(async (d) => ({ name: d.name, bytes: await movable(d.bytes) })));
      return asBuffer(
        await run(
          { op: 'portfolio', documents: own, certificate },
          own.map((d) => d.bytes),
        ),
      );
    },
  };
}

/**
 * A multipart body of up to this many parts (each with a few headers) is
 * split on the event loop: an envelope's definition and its documents, the
 * common case, in views of the body whatever its size. One of more parts
 * (a hostile body of thousands) is split on a thread.
 */
export const multipartOnLoopParts = 64;

/**
 * A copy of the bytes in an ArrayBuffer of its own, handed to the thread
 * without a second copy. Never the caller's own: a Buffer is often a view
 * into a larger one (Node's pool, a blob pack, the stored document itself),
 * which would be cloned whole, or detached under its owner if moved.
 *
 * Copied a slice at a time, the event loop turning between slices: the
 * first write to new memory costs a page fault per 4 KiB, and on a loaded
 * machine 5 MB took the loop ~65 ms in one go (issue 36, BENCHMARKS.md).
 */
async function movable(bytes: Uint8Array): Promise<Uint8Array> {
  // set() is a memory copy; `new Uint8Array(buffer)` copied element by element (~80 ms for 5 MB).
  const copy = new Uint8Array(bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; at += COPY_SLICE) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    copy.set(bytes.subarray(at, at + COPY_SLICE), at);
  }
  return copy;
}

/** Bytes copied between two turns of the event loop. */
const COPY_SLICE = 512 * 1024;

/** The work done on this thread: the same tasks, without a deadline or memory limit. */
export function inlineDocumentWork(): DocumentWork {
  let running = 0;
  const run: TaskRunner = async (task) => {
    running++;
    try {
      // The bytes as the thread would get them (a copy, or bytes the caller gave up).
      return taskValue(await runDocumentTask(task)) as never;
    } finally {
      running--;
    }
  };
  return {
    ...documentOperations(run),
    stats: () => ({ mode: 'inline', threads: 0, running, queued: 0, timedOut: 0, outOfMemory: 0 }),
    close: () => Promise.resolve(),
  };
}
