import type { PDFFont } from 'pdf-lib';

/**
 * Standard fonts only encode WinAnsi (Latin-1 and a few more): "Français"
 * stays as is, but a character outside it is replaced by its base letter when
 * it has one (Ł → L is not decomposable: it becomes "?"), never dropped
 * silently and never an exception that would stop a signature.
 */
export function encodable(font: PDFFont, text: string): string {
  // Printable ASCII is all in WinAnsi (Helvetica's encoding): most text is, and a 5 MB one is not walked a character at a time.
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    if (canEncode(font, ch)) out += ch;
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== ch && [...base].every((c) => canEncode(font, c)) ? base : '?';
    }
  }
  return out;
}

/** What each font was found to encode, by character: asked once each (a 5 MB text is 5 million characters). */
const encodes = new WeakMap<PDFFont, Map<string, boolean>>();

function canEncode(font: PDFFont, ch: string): boolean {
  let known = encodes.get(font);
  if (!known) encodes.set(font, (known = new Map<string, boolean>()));
  let can = known.get(ch);
  if (can === undefined) {
    try {
      font.encodeText(ch);
      can = true;
    } catch {
      can = false;
    }
    known.set(ch, can);
  }
  return can;
}
