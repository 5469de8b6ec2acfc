import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { wireDocGenFields } from '../jobs/docgen-form-fields.js';
import type { ResolvedDocument } from '../jobs/model.js';
import { mergeDocx } from '../pdf/docx-merge.js';
import { readDocumentText, renditionOf, type PageText } from '../pdf/index.js';

/** A document of an envelope as the preview uses it: the PDF the service will hold, parsed, and its text. */
export interface DocumentSource {
  /** Names the bytes (sha256 of the file as sent): two rows with one file share one source. */
  readonly key: string;
  /**
   * The PDF, or the PDF rendition of a DOCX, HTML or TXT document (renditionOf, as the sandbox stores it);
   * of a DocGen DOCX, the rendition of the letter generated from the envelope's values.
   */
  readonly bytes: Uint8Array;
  /** Parsed once by pdf-lib, for its pages to be copied into each envelope's preview. */
  readonly pdf: PDFDocument;
  /** Its text with positions, read as the sandbox reads it for anchors (readDocumentText). */
  readonly text: PageText[];
}

/**
 * The documents of the envelopes being previewed, read, converted, parsed
 * and searched once per file and kept a few at a time: a campaign of a
 * thousand rows over one letter reads the letter once, and one with a PDF
 * per row keeps memory flat.
 */
export class DocumentSources {
  readonly #kept = new Map<string, Promise<DocumentSource>>();

  constructor(private readonly keep = 8) {}

  of(doc: ResolvedDocument): Promise<DocumentSource> {
    // A Word template's letter differs with its values (DocuSign's Document Generation): rows with the same values share it.
    const key =
      doc.docGenFormFields === undefined
        ? `${doc.sha256}:${doc.fileExtension}`
        : `${doc.sha256}:${doc.fileExtension}:${JSON.stringify(wireDocGenFields(doc.docGenFormFields))}`;
    let source = this.#kept.get(key);
    if (source !== undefined) {
      this.#kept.delete(key);
    } else {
      source = read(doc, key);
      // A failed read is not kept: the next envelope tries again and reports its own failure.
      source.catch(() => this.#kept.delete(key));
    }
    this.#kept.set(key, source);
    while (this.#kept.size > this.keep) this.#kept.delete(this.#kept.keys().next().value!);
    return source;
  }
}

async function read(doc: ResolvedDocument, key: string): Promise<DocumentSource> {
  const template = await readFile(doc.path);
  // The letter DocuSign generates when the envelope is sent, drawn as the sandbox will hold it.
  const file =
    doc.docGenFormFields !== undefined && doc.fileExtension === 'docx'
      ? mergeDocx(template, wireDocGenFields(doc.docGenFormFields))
      : template;
  const bytes = doc.fileExtension === 'pdf' ? new Uint8Array(file) : await renditionOf(file, doc.fileExtension);
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const text = await readDocumentText({ documentId: doc.documentId, bytes: () => bytes });
  return { key, bytes, pdf, text };
}
