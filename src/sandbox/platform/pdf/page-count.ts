/**
 * A cheap page count for the creation hot path: counts `/Type /Page` objects
 * in the raw bytes, without parsing. Returns null when the pages are hidden in
 * compressed object streams (then the count is computed later with pdf-lib).
 */
export function quickPageCount(bytes: Buffer): number | null {
  // Buffer.indexOf is native: no 100 KB string conversion on the hot path.
  let count = 0;
  let at = bytes.indexOf(typeMarker);
  while (at >= 0) {
    let i = at + typeMarker.length;
    while (i < bytes.length && isPdfSpace(bytes[i]!)) i++;
    if (bytes.subarray(i, i + pageMarker.length).equals(pageMarker)) {
      const next = bytes[i + pageMarker.length];
      // `/Page` but not `/Pages` (or any longer name).
      if (next === undefined || !isNameChar(next)) count++;
    }
    at = bytes.indexOf(typeMarker, at + typeMarker.length);
  }
  return count > 0 ? count : null;
}

const typeMarker = Buffer.from('/Type');
const pageMarker = Buffer.from('/Page');
const isPdfSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isNameChar = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** True when the bytes start like a PDF (DocuSign converts other formats; the sandbox accepts PDFs only). */
export function looksLikePdf(bytes: Buffer): boolean {
  // The header may follow up to 1024 bytes of junk (PDF 1.7, 7.5.2); allow that.
  return bytes.subarray(0, 1024).includes('%PDF-');
}
