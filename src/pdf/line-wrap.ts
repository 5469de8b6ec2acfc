import type { PDFFont } from 'pdf-lib';
import { encodable } from './encodable.js';

/**
 * The width of text in a standard font, in the font's units (1/1000 of the
 * size), read one character at a time: each character's own width plus the
 * kerning between it and the one before, both asked of pdf-lib once per
 * character and once per pair and then remembered. pdf-lib's
 * `widthOfTextAtSize` sums exactly these integers before scaling, so a width
 * built here, times `size / 1000`, is the one it gives for the whole string —
 * without measuring the string again for every character added (which made
 * wrapping a 100 KB word quadratic: issue 36).
 */
export class TextUnits {
  /**
   * Own widths of codes under 256 (NaN: not asked yet), where nearly all of
   * a WinAnsi text is; the few above (quotes, dashes, €) in `wideGlyphs`. Not
   * one array for all 65,536 codes: a font's TextUnits is made per document,
   * and filling 512 KB for each of a run's generated letters cost more than
   * measuring their text.
   */
  private readonly glyphs = new Float64Array(0x100).fill(Number.NaN);
  private readonly wideGlyphs = new Map<number, number>();
  /** Kerning by pair (the two codes in one number). */
  private readonly kerns = new Map<number, number>();

  constructor(private readonly font: PDFFont) {}

  /** The units the character of code `next` adds after the one of code `previous` (-1 at the start of a text). */
  step(previous: number, next: number): number {
    let own = next < 0x100 ? this.glyphs[next]! : (this.wideGlyphs.get(next) ?? Number.NaN);
    if (Number.isNaN(own)) {
      own = this.font.widthOfTextAtSize(String.fromCharCode(next), 1000);
      if (next < 0x100) this.glyphs[next] = own;
      else this.wideGlyphs.set(next, own);
    }
    if (previous < 0) return own;
    const pair = previous * 0x10000 + next;
    let kern = this.kerns.get(pair);
    if (kern === undefined) {
      kern = this.font.widthOfTextAtSize(String.fromCharCode(previous, next), 1000) - this.step(-1, previous) - own;
      this.kerns.set(pair, kern);
    }
    return kern + own;
  }

  /** The units of a whole text. */
  of(text: string): number {
    let units = 0;
    let previous = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      units += this.step(previous, code);
      previous = code;
    }
    return units;
  }
}

/** One TextUnits per font: a document's blocks share what was measured. */
const fontUnits = new WeakMap<PDFFont, TextUnits>();

/**
 * The lines of a block's text at `width` points, one at a time: its own line
 * breaks kept, words moved to the next line when they do not fit, and a word
 * longer than a line cut where it reaches the margin. Every character is
 * measured once (TextUnits), so the time is linear in the text's length
 * whatever its words; and lines are handed out as they are made, so the
 * caller checks its limits (pages, time) between lines, not only once a
 * whole paragraph is wrapped. The text is first made encodable in the font
 * (encodable: WinAnsi, one UTF-16 unit per character).
 */
export function* wrapLines(text: string, font: PDFFont, size: number, width: number): Generator<string> {
  let units = fontUnits.get(font);
  if (!units) fontUnits.set(font, (units = new TextUnits(font)));
  const scale = size / 1000;
  const spaceWidth = units.of(' ') * scale;
  for (const given of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const word of encodable(font, given).split(' ')) {
      if (word === '') continue;
      const wordUnits = units.of(word);
      if (line !== '' && lineWidth + spaceWidth + wordUnits * scale <= width) {
        line += ` ${word}`;
        lineWidth += spaceWidth + wordUnits * scale;
        continue;
      }
      if (line !== '') yield line;
      if (wordUnits * scale <= width) {
        line = word;
        lineWidth = wordUnits * scale;
        continue;
      }
      // A word longer than a line: one pass over it, cutting before the
      // character that would cross the margin (at least one per line, so
      // that cutting always moves on).
      let start = 0;
      let pieceUnits = 0;
      for (let i = 0; i < word.length; i++) {
        const added = units.step(i === start ? -1 : word.charCodeAt(i - 1), word.charCodeAt(i));
        if (i > start && (pieceUnits + added) * scale > width) {
          yield word.slice(start, i);
          start = i;
          pieceUnits = units.step(-1, word.charCodeAt(i));
        } else pieceUnits += added;
      }
      line = word.slice(start);
      lineWidth = pieceUnits * scale;
    }
    if (line !== '') yield line;
  }
}
