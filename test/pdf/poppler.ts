import { tool } from '../signing/pdf-tools.js';

/** A word as poppler's `pdftotext -bbox` reads it: points from the displayed page's top-left, y down. */
export interface PopplerWord {
  word: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every page's size and words, read by poppler (an independent PDF reader: not pdf.js, not pdf-lib). */
export async function popplerWords(path: string): Promise<{ width: number; height: number; words: PopplerWord[] }[]> {
  const { code, out } = await tool('pdftotext', ['-bbox', path, '-']);
  if (code !== 0) throw new Error(`pdftotext failed: ${out}`);
  const pages: { width: number; height: number; words: PopplerWord[] }[] = [];
  const re =
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (const m of out.matchAll(re)) {
    if (m[1] !== undefined) pages.push({ width: Number(m[1]), height: Number(m[2]), words: [] });
    else
      pages.at(-1)!.words.push({
        xMin: Number(m[3]),
        yMin: Number(m[4]),
        xMax: Number(m[5]),
        yMax: Number(m[6]),
        word: (m[7] ?? '')
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"'),
      });
  }
  return pages;
}
