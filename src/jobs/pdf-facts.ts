import { hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { extensionOf, renditionKindOf } from '../pdf/rendition-kinds.js';
import { inflatedOnce } from './inflated-streams.js';
import { limits } from './limits.js';

/** What validation needs to know of a PDF, read once per file. */
export interface PdfFacts {
  size: number;
  sha256: string;
  /** Width and height in points of each page as displayed (rotation applied), in page order. */
  pages: Array<{ width: number; height: number }>;
}

export type PdfFactsResult =
  | { ok: true; facts: PdfFacts }
  | { ok: false; reason: string; code?: 'SR_DOC_INFLATE_LIMIT' | 'SR_DOC_NOT_CONVERTIBLE' }
  /** Over limits.documentBytes: refused by its size, unread. */
  | { ok: false; reason: string; code: 'SR_DOC_TOO_LARGE'; size: number };

/**
 * Size, sha256 and page sizes of one PDF. Synchronous unless pdf-lib must
 * decide. A DOCX, HTML or TXT document (by its extension) has the size and
 * sha256 of the file, and the pages of its PDF rendition, the one the
 * service makes (documentPdfBytes).
 */
export async function readPdfFacts(path: string): Promise<PdfFactsResult> {
  let bytes: Buffer | number;
  try {
    // Synchronous: see confined-path.ts (thread-pool hops cost more than the reads).
    bytes = readWithin(path, limits.documentBytes);
  } catch (error) {
    return { ok: false, reason: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (typeof bytes === 'number')
    return { ok: false, reason: `it is ${bytes} bytes`, code: 'SR_DOC_TOO_LARGE', size: bytes };
  if (renditionKindOf(extensionOf(path))) {
    const rendition = await documentPdfBytes(path, bytes);
    if (!rendition.ok) return rendition;
    const pages = cheapPageSizes(rendition.pdf) ?? (await pdfLibPageSizes(rendition.pdf));
    if (typeof pages === 'string') return { ok: false, reason: pages };
    return {
      ok: true,
      facts: { size: bytes.length, sha256: hash('sha256', bytes, 'hex'), pages },
    };
  }
  const head = bytes.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-')) return { ok: false, reason: 'it does not start with %PDF-' };
  const sha256 = hash('sha256', bytes, 'hex');
  // Before either reader inflates anything: both would inflate the object
  // streams whole, whatever they inflate to. What it inflates, the cheap
  // reader takes from it (issue 37: each object stream was inflated twice).
  const scan: PdfScan = { text: bytes.toString('latin1'), inflated: new Map() };
  const inflated = inflateBudgetProblem(bytes, limits.pdfInflatedBytes, scan);
  if (inflated) return { ok: false, reason: inflated, code: 'SR_DOC_INFLATE_LIMIT' };
  // The cheap reader handles what PDF writers usually produce in a few
  // microseconds; anything it is unsure of goes to pdf-lib, which is exact
  // but ~0.5 ms per file (5 s for 10,000 per-row PDFs).
  const pages = cheapPageSizes(bytes, scan) ?? (await pdfLibPageSizes(bytes));
  if (typeof pages === 'string') return { ok: false, reason: pages };
  if (pages.length === 0) return { ok: false, reason: 'it has no pages' };
  return { ok: true, facts: { size: bytes.length, sha256, pages } };
}

/**
 * The file's bytes, or its size when that is over `limit` (nothing read):
 * a file found in its folder's listing was not measured before
 * (confined-path.ts), so the size is checked on the descriptor read.
 */
function readWithin(path: string, limit: number): Buffer | number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > limit) return size;
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return read < size ? bytes.subarray(0, read) : bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * The PDF validation reads of a document: the file itself, or, for a DOCX,
 * HTML or TXT document (by its extension), its rendition — the one the
 * service makes (src/pdf/document-rendition.ts, deterministic), so that
 * pages and anchors `validate` finds are where the service puts tabs.
 */
export async function documentPdfBytes(
  path: string,
  bytes: Buffer,
): Promise<{ ok: true; pdf: Buffer } | { ok: false; reason: string; code: 'SR_DOC_NOT_CONVERTIBLE' }> {
  const kind = renditionKindOf(extensionOf(path));
  if (!kind) return { ok: true, pdf: bytes };
  // Loaded on demand: the converter (mammoth, htmlparser2, pdf-lib) is for converted documents only.
  const { renditionOf, RenditionError } = await import('../pdf/index.js');
  try {
    const pdf = await renditionOf(bytes, kind);
    return { ok: true, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
  } catch (error) {
    if (error instanceof RenditionError) return { ok: false, reason: error.message, code: 'SR_DOC_NOT_CONVERTIBLE' };
    throw error;
  }
}

async function pdfLibPageSizes(bytes: Buffer): Promise<Array<{ width: number; height: number }> | string> {
  try {
    // Loaded on demand: most PDFs never need it, and pdf-lib is the largest module signrun loads.
    const { pageSizes } = await import('../pdf/page-sizes.js');
    return await pageSizes(bytes);
  } catch (error) {
    return `it cannot be read as a PDF (${(error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 120)})`;
  }
}

const OBJECT = /(\d+)\s+\d+\s+obj\b/g;

/**
 * What the budget check of one PDF leaves to its cheap reader: the file as
 * latin1 text, and each single-Flate stream it inflated whole, by the offset
 * of its data, with the compressed bytes zlib consumed.
 */
export interface PdfScan {
  text: string;
  inflated: Map<number, { data: Buffer; consumed: number }>;
}

/**
 * zlib's inflateSync, with an output chunk sized to the input: the default
 * 16 KiB, allocated outside Buffer's pool for each call, cost twice the
 * inflating itself on the ~400-byte object streams of per-row letters.
 */
function inflateWithin(data: Buffer, maxOutputLength: number): { buffer: Buffer; consumed: number } {
  const chunkSize = data.length < 1024 ? 4096 : 16 * 1024;
  const { buffer, engine } = inflateSync(data, { maxOutputLength, chunkSize, info: true }) as unknown as {
    buffer: Buffer;
    engine: { bytesWritten: number };
  };
  return { buffer, consumed: engine.bytesWritten };
}

/**
 * The most a zlib stream of `n` bytes can inflate to: a deflate symbol of
 * two bits at least (a 1-bit length code and a 1-bit distance code) makes
 * at most 258 bytes, so 1,032 bytes for each byte read (RFC 1951 3.2.5);
 * headers and stored blocks make less.
 */
const deflateRatio = 1032;

/** An object or cross-reference stream's dictionary, read for the budget. */
interface BudgetStream {
  /** Its filters' names, or why signrun does not read it. */
  names: string[] | string;
  dataStart: number;
  data: Buffer;
}

function* budgetStreams(bytes: Buffer, text: string): Generator<BudgetStream> {
  for (const match of text.matchAll(/\/Type\s*\/(?:ObjStm|XRef)\b/g)) {
    // The dictionary holding it runs from its `N G obj` to the `stream` keyword after it.
    const objAt = text.lastIndexOf('obj', match.index);
    const streamAt = text.indexOf('stream', match.index);
    if (objAt < 0 || streamAt < 0) continue;
    const dict = text.slice(objAt + 3, streamAt);
    const filters = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1] ?? '';
    const names = filters.match(/\/\w+/g) ?? [];
    let dataStart = streamAt + 'stream'.length;
    if (bytes[dataStart] === 0x0d) dataStart++;
    if (bytes[dataStart] === 0x0a) dataStart++;
    const dataEnd = text.indexOf('endstream', dataStart);
    const data = bytes.subarray(dataStart, dataEnd < 0 ? bytes.length : dataEnd);
    if (names.some((f) => f !== '/FlateDecode' && f !== '/Fl'))
      yield {
        names: `it has an object stream compressed with ${names.join(' ')}, which signrun does not read`,
        dataStart,
        data,
      };
    else yield { names, dataStart, data };
  }
}

/**
 * The decompression budget of reading a PDF: the streams a PDF reader must
 * inflate to find the pages (object streams, /Type /ObjStm, and
 * cross-reference streams, /Type /XRef, PDF 32000-1 7.5.7-8) are inflated
 * here first, each bounded by what is left of `budget` bytes (zlib's
 * maxOutputLength: it stops at the limit instead of allocating the whole).
 * Page contents and images are never inflated by validation, so they do not
 * count. Such a stream in a compression signrun does not bound (LZW,
 * RunLength: rare in object streams) is refused too. Returns why, or
 * undefined when the file stays within the budget.
 *
 * When what the streams could inflate to at most ({@link deflateRatio},
 * every stage of a chain counted as the exact check counts it) is under the
 * budget, nothing is inflated here: the answer is the one inflating would
 * give (issue 37: a letter's cross-reference stream was inflated for a
 * budget it could not reach, and only its object stream is read).
 */
export function inflateBudgetProblem(bytes: Buffer, budget: number, scan?: PdfScan): string | undefined {
  const text = scan?.text ?? bytes.toString('latin1');
  let most = 0;
  for (const stream of budgetStreams(bytes, text)) {
    if (typeof stream.names === 'string') return stream.names;
    for (let stage = 1, out = stream.data.length; stage <= stream.names.length; stage++) {
      out *= deflateRatio;
      most += out;
    }
    if (most >= budget) return exactInflateBudgetProblem(bytes, text, budget, scan);
  }
  return undefined;
}

function exactInflateBudgetProblem(bytes: Buffer, text: string, budget: number, scan?: PdfScan): string | undefined {
  let left = budget;
  const tooMuch = `its compressed object streams inflate to more than ${Math.round(budget / (1024 * 1024))} MiB`;
  for (const { names, dataStart, data: compressed } of budgetStreams(bytes, text)) {
    if (typeof names === 'string') return names;
    let data = compressed;
    for (let i = 0; i < names.length; i++) {
      if (left <= 0) return tooMuch;
      try {
        const { buffer, consumed } = inflateWithin(data, left);
        if (names.length === 1) scan?.inflated.set(dataStart, { data: buffer, consumed });
        data = buffer;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return tooMuch;
        break; // broken data: the readers decide what it is
      }
      left -= data.byteLength;
    }
  }
  return undefined;
}

/**
 * Page sizes from the page tree (PDF 32000-1 7.7.3) without a full parse:
 * objects are found by scanning for `N G obj`, compressed object streams
 * (7.5.7) are inflated, then /Root → /Pages → /Kids is walked with inherited
 * /MediaBox and /Rotate. Returns undefined at the first thing it does not
 * understand (encryption, indirect boxes, a leaf count that disagrees with
 * /Count), so that pdf-lib decides instead.
 */
export function cheapPageSizes(bytes: Buffer, scan?: PdfScan): Array<{ width: number; height: number }> | undefined {
  const text = scan?.text ?? bytes.toString('latin1');
  const tail = text.slice(-2048);
  if (!tail.includes('%%EOF') || !tail.includes('startxref')) return undefined;
  if (/\/Encrypt\s/.test(text.slice(-8192))) return undefined;
  const objects = new Map<number, string>();
  for (const match of text.matchAll(OBJECT)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endobj', start);
    if (end < 0) return undefined;
    const body = text.slice(start, end);
    const streamAt = body.indexOf('stream');
    const dict = streamAt >= 0 ? body.slice(0, streamAt) : body;
    objects.set(Number(match[1]), dict);
    if (/\/Type\s*\/ObjStm\b/.test(dict)) {
      if (!unpackObjectStream(bytes, start + streamAt, dict, objects, scan)) return undefined;
    }
  }
  const rootRef = [...text.matchAll(/\/Root\s+(\d+)\s+\d+\s+R/g)].pop();
  if (!rootRef) return undefined;
  const catalog = objects.get(Number(rootRef[1]));
  const pagesRef = catalog && /\/Pages\s+(\d+)\s+\d+\s+R/.exec(catalog);
  if (!pagesRef) return undefined;
  const rootPages = objects.get(Number(pagesRef[1]));
  const count = rootPages && /\/Count\s+(\d+)/.exec(rootPages);
  if (!count) return undefined;

  const sizes: Array<{ width: number; height: number }> = [];
  const visited = new Set<number>();
  const walk = (id: number, box: PageSize | undefined, rotate: number, depth: number): boolean => {
    if (depth > 64 || visited.has(id)) return false;
    visited.add(id);
    const dict = objects.get(id);
    if (!dict) return false;
    const ownBox = readBox(dict);
    if (ownBox === null) return false;
    const useBox = ownBox ?? box;
    const rotateMatch = /\/Rotate\s+(-?\d+)/.exec(dict);
    const useRotate = rotateMatch ? Number(rotateMatch[1]) : rotate;
    if (/\/Type\s*\/Pages\b/.test(dict)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(dict);
      if (!kids) return false;
      for (const ref of kids[1]!.matchAll(/(\d+)\s+\d+\s+R/g))
        if (!walk(Number(ref[1]), useBox, useRotate, depth + 1)) return false;
      return true;
    }
    if (!/\/Type\s*\/Page\b/.test(dict) || !useBox) return false;
    const { width, height } = useBox;
    sizes.push(Math.round(useRotate / 90) % 2 !== 0 ? { width: height, height: width } : { width, height });
    return true;
  };
  if (!walk(Number(pagesRef[1]), undefined, 0, 0)) return undefined;
  return sizes.length === Number(count[1]) ? sizes : undefined;
}

interface PageSize {
  width: number;
  height: number;
}

/**
 * A /MediaBox's width and height. undefined: no /MediaBox here; null: one
 * we cannot read cheaply (indirect). Not the four numbers as an array: an
 * array of whole numbers and one with a fraction (595.28) are two kinds of
 * array to V8, and the page walk's optimised code was thrown away when the
 * second came (issue 37, `--trace-deopt`).
 */
function readBox(dict: string): PageSize | undefined | null {
  const at = dict.indexOf('/MediaBox');
  if (at < 0) return undefined;
  const match = /^\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(dict.slice(at));
  if (!match) return null;
  return {
    width: Math.abs(Number(match[3]) - Number(match[1])),
    height: Math.abs(Number(match[4]) - Number(match[2])),
  };
}

function unpackObjectStream(
  bytes: Buffer,
  streamKeywordAt: number,
  dict: string,
  objects: Map<number, string>,
  scan: PdfScan | undefined,
): boolean {
  const length = /\/Length\s+(\d+)(\s+\d+\s+R)?/.exec(dict);
  const n = /\/N\s+(\d+)/.exec(dict);
  const first = /\/First\s+(\d+)/.exec(dict);
  if (!length || length[2] || !n || !first || !/\/Filter\s*\/FlateDecode\b/.test(dict) || /\/DecodeParms/.test(dict))
    return false;
  let dataStart = streamKeywordAt + 'stream'.length;
  if (bytes[dataStart] === 0x0d) dataStart++;
  if (bytes[dataStart] === 0x0a) dataStart++;
  let content: string;
  // Inflated by the budget check already, from the same offset: the same
  // output when zlib's stream ended within /Length (what follows it is not read).
  const done = scan?.inflated.get(dataStart);
  if (done && done.consumed <= Number(length[1])) content = done.data.toString('latin1');
  else {
    try {
      const limit = limits.pdfInflatedBytes;
      content = inflatedOnce(bytes.subarray(dataStart, dataStart + Number(length[1])), limit, (data) =>
        inflateWithin(data, limit).buffer.toString('latin1'),
      );
    } catch {
      return false;
    }
  }
  // By push, not split(…).map(Number): map's array changes hidden class once this function is optimised (packed-map.ts).
  const header: number[] = [];
  for (const field of content.slice(0, Number(first[1])).trim().split(/\s+/)) header.push(Number(field));
  const count = Number(n[1]);
  for (let i = 0; i < count; i++) {
    const id = header[2 * i];
    const offset = header[2 * i + 1];
    if (id === undefined || offset === undefined) return false;
    const next = i + 1 < count ? header[2 * i + 3] : undefined;
    const start = Number(first[1]) + offset;
    if (!objects.has(id))
      objects.set(id, content.slice(start, next === undefined ? undefined : Number(first[1]) + next));
  }
  return true;
}
