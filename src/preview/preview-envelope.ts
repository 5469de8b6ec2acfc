import { PDFDocument, StandardFonts, type PDFPage } from 'pdf-lib';
import type { ResolvedEnvelope } from '../jobs/model.js';
import { EnvelopeText, tabBox, tabSize, type DrawFonts } from '../pdf/index.js';
import type { DocumentSource, DocumentSources } from './document-sources.js';
import { drawPreviewTab } from './draw-preview-tab.js';
import {
  overflowFindings,
  overlapFindings,
  overTextFindings,
  type BoxedTab,
  type PreviewFinding,
} from './preview-warnings.js';
import { previewTabsOf } from './preview-tabs.js';
import { recipientColour } from './recipient-colours.js';

/** One page of an envelope's preview: which document's page it is, and its tabs in their boxes. */
export interface PreviewPage {
  readonly documentId: string;
  readonly pageNumber: number;
  readonly source: DocumentSource;
  /** The page's index in its source document (0-based), for its size and rotation. */
  readonly index: number;
  readonly tabs: readonly BoxedTab[];
}

/** An envelope's preview: its PDF, its pages in order, and what to look at. */
export interface EnvelopePreview {
  readonly pdf: Uint8Array;
  readonly pages: readonly PreviewPage[];
  readonly findings: readonly PreviewFinding[];
}

async function embedFonts(doc: PDFDocument): Promise<DrawFonts> {
  // The stamp's two fonts (drawTabs): the values are measured and drawn in what will be stamped.
  return {
    script: await doc.embedFont(StandardFonts.TimesRomanBoldItalic),
    plain: await doc.embedFont(StandardFonts.Helvetica),
  };
}

/**
 * Previews an envelope built from documents: every document (its PDF or
 * rendition) in one PDF, each tab placed as the sandbox places it and drawn
 * in its box (tabBox, the stamp's) in its recipient's colour; and the
 * findings: values wider than their box, tabs over tabs, tabs over text.
 */
export async function previewEnvelope(envelope: ResolvedEnvelope, sources: DocumentSources): Promise<EnvelopePreview> {
  const documents: Array<{ documentId: string; source: DocumentSource }> = [];
  for (const doc of envelope.documents) documents.push({ documentId: doc.documentId, source: await sources.of(doc) });
  const byId = new Map(documents.map((d) => [d.documentId, d.source]));
  const text = new EnvelopeText(
    documents.map((d) => ({ documentId: d.documentId, bytes: () => d.source.bytes })),
    // The text was read once for the file, as the sandbox reads it (DocumentSources).
    (doc) => Promise.resolve(byId.get(doc.documentId)?.text ?? []),
  );
  const tabs = await previewTabsOf(envelope, text);

  const out = await PDFDocument.create();
  const fonts = await embedFonts(out);
  const pages: PreviewPage[] = [];
  for (const { documentId, source } of documents) {
    const copied = await out.copyPages(source.pdf, source.pdf.getPageIndices());
    for (const [index, page] of copied.entries()) {
      out.addPage(page);
      const pageNumber = index + 1;
      const boxed: BoxedTab[] = [];
      for (const tab of tabs) {
        if (tab.documentId !== documentId || tab.place.pageNumber !== pageNumber) continue;
        const box = tabBox(tab.place, tabSize(tab.kind, tab.place), page.getSize());
        const fit = drawPreviewTab(page, box, tab, recipientColour(tab.recipient), fonts);
        boxed.push(fit === undefined ? { tab, box } : { tab, box, fit });
      }
      pages.push({ documentId, pageNumber, source, index, tabs: boxed });
    }
  }
  const all = pages.flatMap((p) => p.tabs);
  const findings = [
    ...overflowFindings(all),
    ...overlapFindings(all),
    ...overTextFindings(all, (documentId) => byId.get(documentId)?.text ?? []),
  ];
  return { pdf: await out.save(), pages, findings };
}

/**
 * The overlay of pages for the renderer (PageRasterizer): for each page, a
 * blank page of the same boxes and rotation with only its tabs, drawn by
 * the same drawer as the preview's PDF. One overlay holds the pages of
 * several envelopes, so that it loads its fonts once.
 */
export class OverlayPages {
  readonly #doc: PDFDocument;
  readonly #fonts: DrawFonts;
  #count = 0;

  private constructor(doc: PDFDocument, fonts: DrawFonts) {
    this.#doc = doc;
    this.#fonts = fonts;
  }

  static async create(): Promise<OverlayPages> {
    const doc = await PDFDocument.create();
    return new OverlayPages(doc, await embedFonts(doc));
  }

  get count(): number {
    return this.#count;
  }

  add(page: PreviewPage): void {
    const from = page.source.pdf.getPage(page.index);
    const media = from.getMediaBox();
    const crop = from.getCropBox();
    const blank: PDFPage = this.#doc.addPage([media.width, media.height]);
    blank.setMediaBox(media.x, media.y, media.width, media.height);
    blank.setCropBox(crop.x, crop.y, crop.width, crop.height);
    blank.setRotation(from.getRotation());
    for (const { tab, box } of page.tabs) drawPreviewTab(blank, box, tab, recipientColour(tab.recipient), this.#fonts);
    this.#count += 1;
  }

  save(): Promise<Uint8Array> {
    return this.#doc.save();
  }
}
