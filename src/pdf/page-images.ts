import { join } from 'node:path';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { pdfjsRoot, restoreStringify } from './page-text.js';
import { pngOf } from './png-file.js';

/** One page to render: a page of a document, with a page of the overlay drawn over it. */
export interface OverlaidPage {
  /** Names the document's bytes (its sha256): its pages are rendered once per key and kept for the next pages. */
  readonly baseKey: string;
  readonly baseBytes: () => Uint8Array;
  /** 1-based, in the document. */
  readonly pageNumber: number;
}

/** A rendered page: a PNG and its size in pixels. */
export interface PageImage {
  readonly png: Buffer;
  readonly width: number;
  readonly height: number;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  // Loaded on demand, as readPageText does: only the preview renders.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  restoreStringify();
  try {
    return await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      useSystemFonts: false,
      // Glyphs drawn as paths from the fonts' data: the same pixels on every machine, no system font involved.
      disableFontFace: true,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
      standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
    }).promise;
  } finally {
    restoreStringify();
  }
}

/**
 * Renders pages to PNG with pdf.js on @napi-rs/canvas (no browser). Many
 * envelopes share one document and differ only in their tabs, so a page is
 * rendered in two layers: the document's page once (kept, a few at a time),
 * and over it the page of an overlay PDF that holds only the tabs, drawn by
 * the same drawers as the preview's PDF. pdf.js draws the overlay on a
 * transparent background, so the pixels are those of rendering the page
 * with its tabs — at a fraction of the cost, and an overlay of many pages
 * loads its fonts once.
 */
export class PageRasterizer {
  readonly #bases = new Map<string, Canvas>();

  /**
   * @param scale pixels per point (1: 72 dots per inch, a pixel per point).
   * @param keep document pages kept rendered (most recently used first out last).
   */
  constructor(
    readonly scale: number,
    private readonly keep = 8,
  ) {}

  /**
   * Renders each page of `overlay` over its `pages[i]`, in order. Each
   * page's PNG is compressed (on the thread pool) while the next page is
   * rendered, a few pages ahead at most.
   */
  async *overlaid(overlay: Uint8Array, pages: readonly OverlaidPage[]): AsyncGenerator<PageImage> {
    const doc = await openPdf(overlay);
    const ahead: Array<Promise<PageImage>> = [];
    try {
      for (const [i, page] of pages.entries()) {
        const base = await this.#base(page);
        const top = await doc.getPage(i + 1);
        const viewport = top.getViewport({ scale: this.scale });
        const canvas = createCanvas(base.width, base.height);
        const context = canvas.getContext('2d');
        context.drawImage(base, 0, 0);
        await top.render({
          // @napi-rs/canvas is the canvas pdf.js itself uses under Node (its DOM types are absent here: no cast needed).
          canvas,
          canvasContext: context,
          viewport,
          background: 'rgba(0,0,0,0)',
        }).promise;
        top.cleanup();
        // The canvas's own pixels (RGBA; opaque, so premultiplied or not is the same), without getImageData's copy.
        const { width, height } = canvas;
        ahead.push(pngOf(canvas.data(), width, height).then((png) => ({ png, width, height })));
        if (ahead.length >= 3) yield await ahead.shift()!;
      }
      while (ahead.length > 0) yield await ahead.shift()!;
    } finally {
      await Promise.allSettled(ahead);
      await doc.destroy();
      restoreStringify();
    }
  }

  async #base(page: OverlaidPage): Promise<Canvas> {
    const key = `${page.baseKey}#${page.pageNumber}`;
    const kept = this.#bases.get(key);
    if (kept !== undefined) {
      // Most recently used last: the first entry is the one to drop.
      this.#bases.delete(key);
      this.#bases.set(key, kept);
      return kept;
    }
    const doc = await openPdf(page.baseBytes());
    try {
      const pdfPage = await doc.getPage(page.pageNumber);
      const viewport = pdfPage.getViewport({ scale: this.scale });
      const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
      const context = canvas.getContext('2d');
      await pdfPage.render({ canvas, canvasContext: context, viewport }).promise;
      this.#bases.set(key, canvas);
      while (this.#bases.size > this.keep) this.#bases.delete(this.#bases.keys().next().value!);
      return canvas;
    } finally {
      await doc.destroy();
      restoreStringify();
    }
  }
}
