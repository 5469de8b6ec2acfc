import { PDFDocument } from 'pdf-lib';
import { readDocumentText, TabPageError, type PageText, type TabSize, type TabToDraw } from '../../../pdf/index.js';
import { mergeFieldsOf, type MergeField } from '../../../pdf/docx-merge-fields.js';
import { ApiError } from '../../platform/http/api-error.js';
import { parseJsonBodyOnThread, type ParsedJsonBody } from '../../platform/http/large-json-body.js';
import { parseMultipart, type MultipartPart } from '../../platform/http/multipart.js';
import { combinePdfs, exactPageCount } from '../../platform/pdf/combine.js';
import { stampSignatures, type SignatureStamp } from '../../platform/pdf/stamp-signatures.js';
import type { SandboxCa } from '../../platform/seal/sandbox-ca.js';
import type { PdfSealer, SealOptions } from '../../platform/seal/seal-pdf.js';
import { certificatePdf, type CertificateInput } from '../envelopes/documents/certificate.js';
import { documentPdf, type DocGenIntake } from '../envelopes/documents/document-intake.js';
import { pdfPortfolio } from '../envelopes/documents/portfolio.js';
import type { IncomingDocument } from '../envelopes/wire/envelope-definition.js';

/**
 * The sandbox's work on bytes a client sent, as data that can cross to a
 * worker thread (document-worker.ts) and back: a document converted to the
 * PDF the sandbox keeps, the text of a PDF read for anchors, a PDF's exact
 * page count or its page sizes, a large JSON body parsed with its documents
 * decoded, signatures stamped into a PDF, a PDF sealed, PDFs combined,
 * a DocGen DOCX's merge fields listed, a multipart body split into its
 * parts, the certificate of completion written, a PDF portfolio made.
 */
export type DocumentTask =
  | { op: 'convert'; document: IncomingDocument; docGen?: DocGenTask }
  | { op: 'text'; bytes: Uint8Array }
  | { op: 'pages'; bytes: Uint8Array }
  | { op: 'pageSizes'; bytes: Uint8Array }
  | { op: 'json'; bytes: Uint8Array }
  | { op: 'stamp'; bytes: Uint8Array; stamps: SignatureStamp[]; others: TabToDraw[] }
  | { op: 'seal'; bytes: Uint8Array; ca: SealingKey; options: SealOptions }
  | { op: 'combine'; parts: Uint8Array[] }
  | { op: 'mergeFields'; bytes: Uint8Array }
  | { op: 'multipart'; bytes: Uint8Array; contentType: string }
  | { op: 'certificate'; input: CertificateInput }
  | { op: 'portfolio'; documents: Array<{ name: string; bytes: Uint8Array }>; certificate: CertificateInput };

/** The sealing key as it crosses to a thread (the CA's PKCS#12 and its passphrase). */
export type SealingKey = Pick<SandboxCa, 'p12' | 'passphrase'>;

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
  /** Each page's size, none for a PDF pdf-lib cannot read (the signing page still shows it with pdf.js). */
  pageSizes: TabSize[];
  json: ParsedJsonBody;
  stamp: Uint8Array;
  seal: Uint8Array;
  combine: Uint8Array;
  mergeFields: MergeField[];
  /** The parts, each body in an ArrayBuffer of its own (moved back whole); none when the body is malformed. */
  multipart: MultipartPart[] | undefined;
  certificate: Uint8Array;
  portfolio: Uint8Array;
}

/**
 * A task's outcome as a message: the value, the API error it ended with
 * (its status, DocuSign's errorCode and message, rebuilt on the other side
 * by {@link taskValue}), or a stamp on a page the document lacks (the PDF
 * layer's TabPageError, rebuilt too). Any other error is a fault of the
 * sandbox and is thrown as it is.
 */
export type DocumentTaskOutcome<V> =
  | { ok: true; value: V }
  | { ok: false; status: number; errorCode: string; message: string }
  | { ok: false; tabPage: { pageNumber: number; pageCount: number } };

/** Runs one task on this thread. */
export async function runDocumentTask(task: DocumentTask): Promise<DocumentTaskOutcome<unknown>> {
  try {
    return { ok: true, value: await taskOf(task) };
  } catch (error) {
    if (error instanceof ApiError)
      return { ok: false, status: error.statusCode, errorCode: error.errorCode, message: error.message };
    if (error instanceof TabPageError)
      return { ok: false, tabPage: { pageNumber: error.pageNumber, pageCount: error.pageCount } };
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
    case 'pageSizes':
      return pageSizes(task.bytes);
    case 'json':
      return Promise.resolve(parseJsonBodyOnThread(asBuffer(task.bytes)));
    case 'stamp':
      return stampSignatures(task.bytes, task.stamps, task.others);
    case 'seal':
      return sealerOf(task.ca).then((seal) => seal(task.bytes, task.options));
    case 'combine':
      return combinePdfs(task.parts.map(asBuffer));
    case 'mergeFields':
      return Promise.resolve(mergeFieldsOf(task.bytes));
    case 'multipart':
      return Promise.resolve(ownedParts(parseMultipart(asBuffer(task.bytes), task.contentType)));
    case 'certificate':
      return Promise.resolve(certificatePdf(task.input));
    case 'portfolio':
      return pdfPortfolio(
        task.documents.map((d) => ({ name: d.name, bytes: asBuffer(d.bytes) })),
        certificatePdf(task.certificate),
      );
  }
}

/**
 * Each part's body copied into an ArrayBuffer of its own: views into the
 * body would be cloned back whole (with the body) on the event loop's side;
 * their own buffers are moved back without a copy.
 */
function ownedParts(parts: MultipartPart[] | undefined): MultipartPart[] | undefined {
  return parts?.map((part) => {
    const own = new Uint8Array(part.body.byteLength);
    own.set(part.body);
    return { ...part, body: Buffer.from(own.buffer) };
  });
}

async function pageSizes(bytes: Uint8Array): Promise<TabSize[]> {
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    return doc.getPages().map((p) => p.getSize());
  } catch {
    return [];
  }
}

// Decrypting the PKCS#12 costs ~200 ms (seal/sandbox-signer.ts): once per thread and key.
const sealers = new Map<string, Promise<PdfSealer>>();
function sealerOf(key: SealingKey): Promise<PdfSealer> {
  let sealer = sealers.get(key.passphrase);
  if (sealer === undefined) {
    // Loaded with the first seal: node-forge and @signpdf are for completed
    // envelopes only, not for every thread's start (issue 38).
    sealer = import('../../platform/seal/seal-pdf.js').then(({ createPdfSealer }) =>
      createPdfSealer({
        p12: asBuffer(key.p12),
        passphrase: key.passphrase,
        rootCertPem: '',
        sealingCertPem: '',
      }),
    );
    sealers.set(key.passphrase, sealer);
    // A key that could not be read is not kept: the next seal tries again, as before.
    sealer.catch(() => sealers.delete(key.passphrase));
  }
  return sealer;
}

/** The value of an outcome, or its error thrown. */
export function taskValue<V>(outcome: DocumentTaskOutcome<V>): V {
  if (outcome.ok) return outcome.value;
  if ('tabPage' in outcome) throw new TabPageError(outcome.tabPage.pageNumber, outcome.tabPage.pageCount);
  throw new ApiError(outcome.status, outcome.errorCode, outcome.message);
}

/**
 * The ArrayBuffers of a value that its typed arrays own whole (a thread's
 * answer moved back without a copy). A view into a shared one (Node's pool
 * of small Buffers) is left to be copied: moving it would take the pool away
 * from the thread.
 */
export function ownedBuffers(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && value.buffer instanceof ArrayBuffer)
      found.add(value.buffer);
  } else if (Array.isArray(value)) for (const item of value) ownedBuffers(item, found);
  else if (value !== null && typeof value === 'object' && !(value instanceof Date))
    for (const member of Object.values(value)) ownedBuffers(member, found);
  return [...found];
}

export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
