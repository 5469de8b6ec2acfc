/**
 * A cheap page count for the creation hot path: counts `/Type /Page` objects
 * in the raw bytes, without parsing. Returns null when the pages are hidden in
 * compressed object streams (then the count is computed later with pdf-lib).
 */
export function quickPageCount(bytes: Buffer): number | null {
  const text = bytes.toString('latin1');
  const matches = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g);
  return matches && matches.length > 0 ? matches.length : null;
}

/** True when the bytes start like a PDF (DocuSign converts other formats; the sandbox accepts PDFs only). */
export function looksLikePdf(bytes: Buffer): boolean {
  // The header may follow up to 1024 bytes of junk (PDF 1.7, 7.5.2); allow that.
  return bytes.subarray(0, 1024).includes('%PDF-');
}
