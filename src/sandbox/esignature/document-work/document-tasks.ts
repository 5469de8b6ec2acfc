import { readDocumentText, type PageText } from '../../../pdf/index.js';
import { ApiError } from '../../platform/http/api-error.js';
import { exactPageCount } from '../../platform/pdf/combine.js';
import { documentPdf, type DocGenIntake } from '../envelopes/documents/document-intake.js';
import type { IncomingDocument } from '../envelopes/wire/envelope-definition.js';

/**
 * The sandbox's work on bytes a client sent, as data that can cross to a
 * worker thread (document-worker.ts) and back: a document converted to the
 * PDF the sandbox keeps, the text of a PDF read for anchors, a PDF's exact
 * page count.
 */
export type DocumentTask =
  | { op: 'convert'; document: IncomingDocument; docGen?: DocGenTask }
  | { op: 'text'; bytes: Uint8Array }
  | { op: 'pages'; bytes: Uint8Array };

/**
 * A DocGen intake as data (the DocGenIntake of pdf/document-intake.ts holds a
 * callback that stays on the sandbox's thread): whether the DOCX of a draft
 * is to be kept, and whether merge fields make a DOCX a DocGen document.
 */
export interface DocGenTask {
  keepSource: boolean;
  detectMergeFields?: boolean;
}

/** What each task gives. */
export interface DocumentTaskValues {
  /** The PDF kept, and whether intake kept the DOCX beside it (a DocGen draft's: the caller stores it). */
  convert: { pdf: Uint8Array; keptSource: boolean };
  text: PageText[];
  pages: number;
}

/**
 * A task's outcome as a message: the value, or the API error it ended with
 * (its status, DocuSign's errorCode and message, rebuilt on the other side
 * by {@link taskValue}). Any other error is a fault of the sandbox and is
 * thrown as it is.
 */
export type DocumentTaskOutcome<V> =
  { ok: true; value: V } | { ok: false; status: number; errorCode: string; message: string };

/** Runs one task on this thread. */
export async function runDocumentTask(task: DocumentTask): Promise<DocumentTaskOutcome<unknown>> {
  try {
    return { ok: true, value: await taskOf(task) };
  } catch (error) {
    if (error instanceof ApiError)
      return { ok: false, status: error.statusCode, errorCode: error.errorCode, message: error.message };
    throw error;
  }
}

function taskOf(task: DocumentTask): Promise<unknown> {
  switch (task.op) {
    case 'convert': {
      let keptSource = false;
      const intake: DocGenIntake = { detectMergeFields: task.docGen?.detectMergeFields };
      if (task.docGen?.keepSource === true) intake.keepSource = () => (keptSource = true);
      // Structured cloning gives a Uint8Array back: documentPdf reads it as the Buffer the request had.
      return documentPdf({ ...task.document, bytes: asBuffer(task.document.bytes) }, intake).then((pdf) => ({
        pdf,
        keptSource,
      }));
    }
    case 'text':
      return readDocumentText({ documentId: '', bytes: () => task.bytes });
    case 'pages':
      return exactPageCount(asBuffer(task.bytes));
  }
}

/** The value of an outcome, or its API error thrown. */
export function taskValue<V>(outcome: DocumentTaskOutcome<V>): V {
  if (outcome.ok) return outcome.value;
  throw new ApiError(outcome.status, outcome.errorCode, outcome.message);
}

export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
