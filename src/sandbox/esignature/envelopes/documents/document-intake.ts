import { extensionOf, RenditionError, renditionKindOf, renditionOf } from '../../../../pdf/index.js';
import { mergeDocx } from '../../../../pdf/docx-merge.js';
import { PDFDocument } from 'pdf-lib';
import type { DocGenFormField } from '../../../../envelope/index.js';
import { mergeFieldsOf, type MergeField } from '../../../../pdf/docx-merge-fields.js';
import { ApiError, apiErrors } from '../../../platform/http/api-error.js';
import type { IncomingDocument } from '../wire/envelope-definition.js';
import { looksLikePdf } from '../../../platform/pdf/page-count.js';

/**
 * The PDF the sandbox keeps of a document of a creation request: a PDF as
 * sent, or the PDF rendition of a DOCX, HTML or TXT document, as DocuSign
 * converts them at intake. What is kept is what every later step reads —
 * anchors, stamping, downloads, the combined PDF, page counts — so they
 * need not know a document was converted.
 *
 * The kind is `fileExtension` (Swagger `#/definitions/document`: "Non-PDF
 * documents are converted to PDF"); without one, a PDF is a PDF, and other
 * bytes are known by the name's extension (`offer.docx`). What is neither a
 * PDF nor a kind the sandbox converts is refused as DocuSign refuses a
 * document it cannot convert, with FORMAT_CONVERSION_ERROR.
 */
export async function documentPdf(document: IncomingDocument, options: DocGenIntake = {}): Promise<Buffer> {
  const { bytes } = document;
  const kind = conversionKind(document);
  if (kind === undefined) {
    if (looksLikePdf(bytes)) return bytes;
    throw conversionError(document, 'is not a PDF');
  }
  try {
    const draft = kind === 'docx' && isDocGenDraft(document, options);
    const pdf = await renditionOf(kind === 'docx' ? generatedLetter(document) : bytes, kind);
    const out = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    if (!draft || options.keepSource === undefined) return out;
    // A DocGen DOCX without its values: the letter is generated later (PUT docGenFormFields, or the send),
    // from the DOCX kept beside the PDF shown meanwhile (docgen/docgen-store.ts).
    const marked = await markedDraft(out);
    options.keepSource(marked, bytes);
    return marked;
  } catch (error) {
    if (error instanceof RenditionError) throw conversionError(document, `cannot be converted: ${error.message}`);
    throw error;
  }
}

/** The kind a document is converted from; undefined for one kept as sent (a PDF) or refused. */
function conversionKind(document: IncomingDocument) {
  const { bytes, fileExtension } = document;
  if (fileExtension !== undefined) return renditionKindOf(fileExtension);
  return looksLikePdf(bytes) ? undefined : renditionKindOf(extensionOf(document.name));
}

/**
 * Whether {@link documentPdf} converts the document (work on its bytes that
 * may be long: DOCX, HTML, TXT) rather than keeping it as sent or refusing
 * it at once (a PDF, or bytes of a kind the sandbox does not convert).
 */
export function needsConversion(document: IncomingDocument): boolean {
  return conversionKind(document) !== undefined;
}

/**
 * What intake does with a DocGen DOCX whose values come later: `keepSource`
 * keeps the DOCX beside the PDF made of it (absent, the DOCX is only
 * converted, as before DocGen); `detectMergeFields` takes a DOCX with merge
 * fields for a DocGen document without `isDocGenDocument` (a template's
 * document: example 42 uploads its DOCX so, and DocuSign finds its fields).
 */
export interface DocGenIntake {
  keepSource?: (pdf: Buffer, docx: Buffer) => void;
  detectMergeFields?: boolean;
}

function isDocGenDraft(document: IncomingDocument, options: DocGenIntake): boolean {
  if (document.docGen !== undefined) return document.docGen.fields === undefined;
  return options.detectMergeFields === true && mergeFieldsOf(document.bytes).length > 0;
}

/**
 * The rendition of a DocGen draft, told apart from the same DOCX sent as a
 * plain document (its keywords say so): the sandbox knows a DocGen document
 * by its PDF's sha256, and a plain DOCX must never become one.
 */
async function markedDraft(pdf: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf);
  doc.setKeywords(['DocuSign Document Generation: not generated yet']);
  doc.setModificationDate(new Date(0));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/**
 * A DocGen DOCX given its values at creation: the letter generated from
 * them (DocuSign generates it when the envelope is sent; the sandbox keeps
 * one PDF per document, made here, which every later step reads). A field
 * of the DOCX without a value, or a value for a field it lacks, is refused
 * as the envelope would be when sent. Without values (a draft whose fields
 * are set later), the DOCX is kept as it is.
 */
function generatedLetter(document: IncomingDocument): Uint8Array {
  const fields = document.docGen?.fields;
  if (fields === undefined) return document.bytes;
  const problem = docGenFieldsProblem(mergeFieldsOf(document.bytes), fields);
  if (problem !== undefined)
    throw apiErrors.invalidBody(`document ${document.documentId} (${document.name}): ${problem.message}`);
  return mergeDocx(document.bytes, fields);
}

/**
 * What is wrong with the values given a DocGen document's merge fields, if
 * anything: a field without a value (a text field's empty or missing; a
 * table row needs its rowValues), or a value for a field it lacks.
 */
export function docGenFieldsProblem(
  merge: readonly MergeField[],
  fields: readonly DocGenFormField[],
): { kind: 'missing' | 'unknown'; names: string[]; message: string } | undefined {
  const given = new Map(fields.map((f) => [f.name, f]));
  const missing = merge.filter((f) => {
    const value = given.get(f.name);
    if (value === undefined) return true;
    return f.kind === 'text' && (value.value ?? '').trim() === '';
  });
  if (missing.length > 0) {
    const names = missing.map((f) => f.name);
    return { kind: 'missing', names, message: `docGenFormFields has no value for ${names.join(', ')}.` };
  }
  const known = new Set(merge.map((f) => f.name));
  const unknown = fields.filter((f) => !known.has(f.name)).map((f) => f.name);
  if (unknown.length > 0)
    return { kind: 'unknown', names: unknown, message: `the document has no merge field ${unknown.join(', ')}.` };
  return undefined;
}

function conversionError(document: IncomingDocument, why: string): ApiError {
  return new ApiError(
    400,
    'FORMAT_CONVERSION_ERROR',
    `The data could not be converted: document ${document.documentId} (${document.name}) ${why}`.replace(/\.?$/, '.'),
  );
}
