/**
 * A Content-Disposition header naming a file (RFC 6266): `filename` with an
 * ASCII stand-in every client reads, and — when the name has any other
 * character — `filename*` with the exact name in UTF-8 (RFC 5987/8187), which
 * browsers and HTTP clients prefer. Node refuses a header holding a
 * character beyond Latin-1 (ERR_INVALID_CHAR): a document named `合同.pdf`
 * or `Vertrag – 2024.pdf` made every download of it answer 500.
 */
export function contentDisposition(type: 'file' | 'inline' | 'attachment', name: string): string {
  // The stand-in: printable ASCII only, without the quote and backslash a quoted-string would need escaped.
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  if (ascii === name) return `${type}; filename="${name}"`;
  return `${type}; filename="${ascii}"; filename*=UTF-8''${attrChars(name)}`;
}

/** RFC 5987's ext-value: every byte outside attr-char percent-encoded (encodeURIComponent leaves ' ( ) * alone). */
function attrChars(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
