import { randomBytes } from 'node:crypto';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const EQUALS = 0x3d;
const KEY = Buffer.from('documentBase64');
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Deepest nesting of objects and arrays a body may have. DocuSign's
 * deepest definitions (composite templates → inline templates → recipients
 * → signers → tabs → a tab) stay under 15; a 50,000-deep body overflowed the
 * stack of whatever walked it (JSON.stringify of a stored field) and
 * answered 500.
 */
export const maxJsonDepth = 100;

/** A body nested deeper than maxJsonDepth: refused before JSON.parse builds it. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`The body nests objects and arrays more than ${maxJsonDepth} levels deep.`);
    this.name = 'JsonTooDeepError';
  }
}

/** Values shorter than this are left to JSON.parse: lifting pays off for document-sized strings only. */
const LIFT_AT_LEAST = 1024;

/**
 * Base64 is decoded in slices of this many characters (a multiple of 4):
 * V8 puts a string over 128 KiB in its large-object space, one mmap per
 * string, which made a 137 KB documentBase64 cost ~0.2 ms just to become a
 * string; 16 KiB strings stay in the young generation and die cheaply.
 */
const SLICE = 16 * 1024;

// Per process, so no client can forge a placeholder that the reviver would replace.
const placeholderPrefix = `\u0000signrun-lifted-${randomBytes(8).toString('hex')}-`;

/**
 * Parses a JSON request body like JSON.parse, except that every
 * `"documentBase64"` value of 1 KiB or more comes back already decoded, as a
 * Buffer, without ever being a JavaScript string (the envelope-creation hot
 * path: the base64 is ~97% of the body, and the UTF-8 decode plus JSON.parse
 * of it were a third of the server's CPU per creation).
 *
 * The result is exactly what JSON.parse + Buffer.from(value, 'base64') would
 * give, and refused exactly when JSON.parse refuses: a value is lifted only
 * when it holds nothing but base64 characters (no escape, no control or
 * non-ASCII character, padding only at the end); anything else is left in
 * the text for JSON.parse. Throws JSON.parse's SyntaxError on bad JSON,
 * and JsonTooDeepError beyond maxJsonDepth levels (counted between the
 * strings it hops over, so the hot path still never reads a value's bytes).
 * An empty (or all-whitespace) body is `undefined`.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  const lifted = new Map<string, Buffer>();
  const pieces: Buffer[] = [];
  let copiedTo = 0;
  let pos = 0;
  let depth = 0;
  // Outside a string, every quote opens one (RFC 8259): hopping from string
  // to string with indexOf finds the keys without reading the values' bytes.
  for (;;) {
    const open = bytes.indexOf(QUOTE, pos);
    depth = nesting(bytes, pos, open < 0 ? bytes.length : open, depth);
    if (open < 0) break;
    const close = closingQuote(bytes, open + 1);
    if (close < 0) break; // unterminated: JSON.parse says so
    pos = close + 1;
    if (close - open - 1 !== KEY.length || bytes.compare(KEY, 0, KEY.length, open + 1, close) !== 0) continue;
    let at = skipWhitespace(bytes, pos);
    if (bytes[at] !== COLON) continue; // a value that reads "documentBase64", not a key
    at = skipWhitespace(bytes, at + 1);
    if (bytes[at] !== QUOTE) continue;
    const start = at + 1;
    const end = closingQuote(bytes, start);
    if (end < 0) break;
    pos = end + 1;
    if (end - start < LIFT_AT_LEAST) continue;
    const decoded = decodeCleanBase64(bytes, start, end);
    if (decoded === undefined) continue;
    const placeholder = `${placeholderPrefix}${lifted.size}`;
    lifted.set(placeholder, decoded);
    pieces.push(bytes.subarray(copiedTo, start), Buffer.from(JSON.stringify(placeholder).slice(1, -1)));
    copiedTo = end;
  }
  const text = (lifted.size === 0 ? bytes : Buffer.concat([...pieces, bytes.subarray(copiedTo)])).toString('utf8');
  if (text.trim() === '') return undefined;
  if (lifted.size === 0) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'string' && value.charCodeAt(0) === 0 ? (lifted.get(value) ?? value) : value,
  );
}

/**
 * The nesting depth after bytes[from, to), which hold no string; throws
 * JsonTooDeepError past maxJsonDepth. Unbalanced brackets are left to
 * JSON.parse to refuse.
 */
function nesting(bytes: Buffer, from: number, to: number, depth: number): number {
  let d = depth;
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++d > maxJsonDepth) throw new JsonTooDeepError();
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) d--;
  }
  return d;
}

/** Index of the quote that ends the string whose content starts at `from`, or -1. */
function closingQuote(bytes: Buffer, from: number): number {
  let at = bytes.indexOf(QUOTE, from);
  while (at >= 0) {
    let backslashes = 0;
    while (at - 1 - backslashes >= from && bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = bytes.indexOf(QUOTE, at + 1);
  }
  return -1;
}

function skipWhitespace(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/**
 * Decodes bytes[start, end) as base64 when every character is a base64 one
 * (node's alphabet: standard or URL-safe) with at most two `=` at the end;
 * undefined otherwise. Node's decoder skips what is not base64, so a slice
 * that decodes to fewer bytes than its length promises held something else.
 */
export function decodeCleanBase64(bytes: Buffer, start: number, end: number): Buffer | undefined {
  let dataEnd = end;
  if (dataEnd > start && bytes[dataEnd - 1] === EQUALS) dataEnd--;
  if (dataEnd > start && bytes[dataEnd - 1] === EQUALS) dataEnd--;
  const length = dataEnd - start;
  if (length % 4 === 1) return undefined; // no byte ends there: not what an encoder writes
  // Whole groups of 4 give 3 bytes; a final 2 or 3 characters give 1 or 2.
  const expected = Math.floor((length * 3) / 4);
  const out = Buffer.allocUnsafe(expected);
  let written = 0;
  for (let at = start; at < dataEnd; at += SLICE) {
    const stop = Math.min(dataEnd, at + SLICE);
    const want = Math.floor(((stop - at) * 3) / 4);
    const got = out.write(bytes.toString('latin1', at, stop), written, want, 'base64');
    if (got !== want) return undefined;
    written += got;
  }
  return written === expected ? out : undefined;
}
