import { extensionOf, RenditionError, renditionKindOf, renditionOf } from '../../pdf/index.js';
import { mergeDocx } from '../../pdf/docx-merge.js';
import { mergeFieldsOf } from '../../pdf/docx-merge-fields.js';
import { ApiError, apiErrors } from '../api-error.js';
import type { IncomingDocument } from '../wire/envelope-definition.js';
import { looksLikePdf } from './page-count.js';

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
export async function documentPdf(document: IncomingDocument): Promise<Buffer> {
  const { bytes } = document;
  const kind = conversionKind(document);
  if (kind === undefined) {
    if (looksLikePdf(bytes)) return bytes;
    throw conversionError(document, 'is not a PDF');
  }
  try {
    const pdf = await renditionOf(kind === 'docx' ? generatedLetter(document) : bytes, kind);
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
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
  const merge = mergeFieldsOf(document.bytes);
  const given = new Set(fields.map((f) => f.name));
  const missing = merge.filter(
    (f) => !given.has(f.name) || (f.kind === 'text' && fields.find((g) => g.name === f.name)?.value?.trim() === ''),
  );
  const known = new Set(merge.map((f) => f.name));
  const unknown = fields.filter((f) => !known.has(f.name));
  if (missing.length > 0)
    throw apiErrors.invalidBody(
      `document ${document.documentId} (${document.name}): docGenFormFields has no value for ${missing.map((f) => f.name).join(', ')}.`,
    );
  if (unknown.length > 0)
    throw apiErrors.invalidBody(
      `document ${document.documentId} (${document.name}): the document has no merge field ${unknown.map((f) => f.name).join(', ')}.`,
    );
  return mergeDocx(document.bytes, fields);
}

function conversionError(document: IncomingDocument, why: string): ApiError {
  return new ApiError(
    400,
    'FORMAT_CONVERSION_ERROR',
    `The data could not be converted: document ${document.documentId} (${document.name}) ${why}`.replace(/\.?$/, '.'),
  );
}
