import { extensionOf, RenditionError, renditionKindOf, renditionOf } from '../../pdf/index.js';
import { ApiError } from '../api-error.js';
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
  const { bytes, fileExtension } = document;
  const kind =
    fileExtension !== undefined
      ? renditionKindOf(fileExtension)
      : looksLikePdf(bytes)
        ? undefined
        : renditionKindOf(extensionOf(document.name));
  if (kind === undefined) {
    if (looksLikePdf(bytes)) return bytes;
    throw conversionError(document, 'is not a PDF');
  }
  try {
    const pdf = await renditionOf(bytes, kind);
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  } catch (error) {
    if (error instanceof RenditionError) throw conversionError(document, `cannot be converted: ${error.message}`);
    throw error;
  }
}

function conversionError(document: IncomingDocument, why: string): ApiError {
  return new ApiError(
    400,
    'FORMAT_CONVERSION_ERROR',
    `The data could not be converted: document ${document.documentId} (${document.name}) ${why}`.replace(/\.?$/, '.'),
  );
}
