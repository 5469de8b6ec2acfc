import { readPageText, type PageText } from './page-text.js';

/** A document of the envelope whose text anchors are looked for in. */
export interface AnchorDocument {
  documentId: string;
  /** The bytes, read only when some tab has an anchor. */
  bytes: () => Uint8Array;
}

/**
 * The largest document whose text is read for anchors: DocuSign's limit for
 * one document (25 MB). A larger one (the sandbox's request body limit lets
 * 34 MiB through) is searched as if it held no text.
 */
export const anchorDocumentLimitBytes = 25 * 1024 * 1024;

/**
 * How a document's text is read: by default pdf.js over its bytes, nothing
 * for a document above the size limit or one pdf.js cannot read (its anchors
 * are then not found, as DocuSign finds none in an image-only PDF). The
 * preview passes a reader that remembers the text of a file shared by many
 * rows; what it returns must be what this one would.
 */
export type DocumentTextReader = (doc: AnchorDocument) => Promise<PageText[]>;

/** The sandbox's reading of a document's text (see DocumentTextReader). */
export const readDocumentText: DocumentTextReader = (doc) => {
  const bytes = doc.bytes();
  return bytes.length > anchorDocumentLimitBytes
    ? Promise.resolve([])
    : readPageText(bytes).catch(() => [] as PageText[]);
};

/**
 * The text of each document of an envelope, read once per envelope and only
 * when an anchor asks for it.
 */
export class EnvelopeText {
  private readonly texts = new Map<string, Promise<PageText[]>>();
  constructor(
    private readonly documents: readonly AnchorDocument[],
    private readonly read: DocumentTextReader = readDocumentText,
  ) {}

  get documentCount(): number {
    return this.documents.length;
  }

  /** Each document's pages, in the envelope's order. */
  async all(): Promise<Array<{ documentId: string; pages: PageText[] }>> {
    const out: Array<{ documentId: string; pages: PageText[] }> = [];
    for (const doc of this.documents) out.push({ documentId: doc.documentId, pages: await this.of(doc) });
    return out;
  }

  private of(doc: AnchorDocument): Promise<PageText[]> {
    let text = this.texts.get(doc.documentId);
    if (text === undefined) {
      text = this.read(doc);
      this.texts.set(doc.documentId, text);
    }
    return text;
  }
}
