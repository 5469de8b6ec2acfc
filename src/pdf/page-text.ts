import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StandardFontEmbedder, StandardFonts } from 'pdf-lib';

/** A rectangle on a page in DocuSign's units: points from the page's top-left corner, y down. */
export interface TextBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/**
 * One line of text as a reader sees it: the text runs (pdf.js's text items)
 * that share a baseline and a direction, in reading order, joined — with a
 * space where the runs leave a gap, without one where a word was drawn in
 * pieces — and whitespace collapsed to single spaces.
 */
export interface TextLine {
  readonly text: string;
  /** boxes[i] is where text[i] (a UTF-16 unit) is drawn; a space put between two runs covers the gap. */
  readonly boxes: readonly TextBox[];
}

/** The text of one page, with the page's size as displayed (rotation applied). */
export interface PageText {
  /** 1-based. */
  readonly pageNumber: number;
  readonly width: number;
  readonly height: number;
  readonly lines: readonly TextLine[];
}

/** A pdf.js text item placed on the displayed page. */
interface Run {
  str: string;
  /** Baseline origin, display coordinates. */
  x: number;
  y: number;
  /** Unit vector along the text. */
  ux: number;
  uy: number;
  /** Vector from the baseline to the top of the text (length: the font's size on the page). */
  vx: number;
  vy: number;
  size: number;
  length: number;
  /** Position along the text direction, and across it (the baseline's distance from the origin). */
  along: number;
  across: number;
  angle: number;
}

/** How much of a PDF readPageText reads before it gives up (each optional: no limit). */
export interface PageTextLimits {
  /** Most pages. */
  readonly pages?: number;
  /** Most text runs (pdf.js text items) over all pages. */
  readonly runs?: number;
  /** Most milliseconds, checked between pages and before each page's text. */
  readonly milliseconds?: number;
}

/** Thrown by readPageText when a PDF exceeds one of its limits: the text was not read. */
export class PageTextLimitError extends Error {
  constructor(
    readonly limit: keyof PageTextLimits,
    message: string,
  ) {
    super(message);
    this.name = 'PageTextLimitError';
  }
}

/**
 * pdf.js's legacy build carries core-js, which replaces the global
 * JSON.stringify with a JavaScript one (to add JSON.rawJSON, which Node 20
 * lacks) when pdf.js and its worker load: every JSON.stringify of the
 * process then runs several times slower (validating 10,000 envelopes spent
 * a second more in it, digests included). The native one is put back after
 * each step that may load pdf.js code; pdf.js does not use rawJSON.
 */
const nativeStringify = JSON.stringify;
export function restoreStringify(): void {
  if (JSON.stringify !== nativeStringify) JSON.stringify = nativeStringify;
}

/** pdfjs-dist's folder (its standard fonts, for the readers and the renderer). */
export const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * The text of every page of a PDF with positions, read by pdf.js (its legacy
 * build, the one meant for Node). Positions are DocuSign's: points from the
 * top-left of the page as displayed (its /Rotate applied), pages 1-based.
 * pdf.js tells where each run of text starts and how long it is, not where
 * each letter is: letters inside a run are placed in proportion to their
 * widths in Helvetica, exact for Helvetica and close for other proportional
 * fonts. Throws when pdf.js cannot read the file.
 */
export async function readPageText(pdf: Uint8Array, limits: PageTextLimits = {}): Promise<PageText[]> {
  const started = Date.now();
  const inTime = () => {
    if (limits.milliseconds !== undefined && Date.now() - started > limits.milliseconds)
      throw new PageTextLimitError('milliseconds', `reading its text took more than ${limits.milliseconds / 1000} s`);
  };
  // Loaded on demand: only anchors need it, and it is large.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  restoreStringify();
  const loading = pdfjs.getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: give it a copy.
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
  });
  let doc: Awaited<typeof loading.promise>;
  try {
    doc = await loading.promise;
  } finally {
    // The worker's code (loaded in this thread under Node) polyfills it again.
    restoreStringify();
  }
  try {
    if (limits.pages !== undefined && doc.numPages > limits.pages)
      throw new PageTextLimitError('pages', `it has ${doc.numPages} pages, more than ${limits.pages}`);
    const pages: PageText[] = [];
    let allRuns = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      inTime();
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      inTime();
      allRuns += content.items.length;
      if (limits.runs !== undefined && allRuns > limits.runs)
        throw new PageTextLimitError('runs', `it has more than ${limits.runs} runs of text`);
      const runs: Run[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str === '') continue;
        const [a, b, c, d, e, f] = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
        const scale = Math.hypot(a!, b!);
        const size = Math.hypot(c!, d!);
        if (scale === 0 || size === 0) continue;
        const ux = a! / scale;
        const uy = b! / scale;
        const x = e!;
        const y = f!;
        const angle = Math.round((Math.atan2(uy, ux) * 180) / Math.PI);
        runs.push({
          str: item.str,
          x,
          y,
          ux,
          uy,
          vx: c!,
          vy: d!,
          size,
          length: item.width,
          along: x * ux + y * uy,
          across: y * ux - x * uy,
          angle,
        });
      }
      pages.push({ pageNumber: n, width: viewport.width, height: viewport.height, lines: linesOf(runs) });
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
    restoreStringify();
  }
}

/** Groups runs into lines (same direction, baselines closer than half the text's size), each in reading order. */
function linesOf(runs: Run[]): TextLine[] {
  const sorted = [...runs].sort((p, q) => p.angle - q.angle || p.across - q.across);
  const groups: Run[][] = [];
  for (const run of sorted) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (
      group &&
      last &&
      last.angle === run.angle &&
      Math.abs(run.across - last.across) < 0.5 * Math.max(run.size, last.size)
    )
      group.push(run);
    else groups.push([run]);
  }
  return groups.map((group) => joinRuns(group.sort((p, q) => p.along - q.along)));
}

/** Glyph widths to spread a run's length over its letters (see readPageText). */
const helvetica = StandardFontEmbedder.for(
  StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0],
);

function widthOf(ch: string): number {
  try {
    return helvetica.widthOfTextAtSize(ch, 1000) || 500;
  } catch {
    return 500; // not in WinAnsi: an average letter
  }
}

function joinRuns(runs: Run[]): TextLine {
  let text = '';
  const boxes: TextBox[] = [];
  const push = (ch: string, box: TextBox) => {
    const space = /\s/.test(ch);
    if (space && (text === '' || text.endsWith(' '))) return;
    text += space ? ' ' : ch;
    boxes.push(box);
  };
  let end: { along: number; run: Run } | undefined;
  for (const run of runs) {
    // A gap wider than a fifth of the text's size between two runs reads as a space.
    if (end !== undefined && run.along - end.along > 0.2 * Math.max(run.size, end.run.size))
      push(' ', boxAlong(end.run, end.along - end.run.along, run.along - end.run.along));
    const letters = [...run.str];
    const widths = letters.map(widthOf);
    const total = widths.reduce((s, w) => s + w, 0) || 1;
    let at = 0;
    letters.forEach((ch, i) => {
      const from = (at / total) * run.length;
      at += widths[i]!;
      const box = boxAlong(run, from, (at / total) * run.length);
      if (ch.length === 1) push(ch, box);
      else
        // Both halves of a surrogate pair get the letter's box.
        for (const unit of ch.split('')) {
          text += unit;
          boxes.push(box);
        }
    });
    end = { along: run.along + run.length, run };
  }
  while (text.endsWith(' ')) {
    text = text.slice(0, -1);
    boxes.pop();
  }
  return { text, boxes };
}

/** The box of the stretch [from, to] along a run (from its origin), as high as its text. */
function boxAlong(run: Run, from: number, to: number): TextBox {
  const x0 = run.x + run.ux * from;
  const y0 = run.y + run.uy * from;
  const x1 = run.x + run.ux * to;
  const y1 = run.y + run.uy * to;
  const xs = [x0, x1, x0 + run.vx, x1 + run.vx];
  const ys = [y0, y1, y0 + run.vy, y1 + run.vy];
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}
