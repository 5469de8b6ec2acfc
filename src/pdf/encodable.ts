import type { PDFFont } from 'pdf-lib';

/**
 * Standard fonts only encode WinAnsi (Latin-1 and a few more): "Français"
 * stays as is, but a character outside it is replaced by its base letter when
 * it has one (Ł → L is not decomposable: it becomes "?"), never dropped
 * silently and never an exception that would stop a signature.
 */
export function encodable(font: PDFFont, text: string): string {
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

function canEncode(font: PDFFont, ch: string): boolean {
  try {
    font.encodeText(ch);
    return true;
  } catch {
    return false;
  }
}
