import { StandardFontEmbedder, StandardFonts } from 'pdf-lib';

/** The two faces a text PDF can use: the standard 14 fonts Helvetica and Helvetica-Bold (never embedded). */
export type TextFace = 'regular' | 'bold';

/** One run of text at a position (points from the bottom-left corner of the page). */
export interface TextRun {
  /** Left edge of the text, points from the left of the page. */
  x: number;
  /** Baseline, points from the bottom of the page. */
  y: number;
  /** Font size in points. */
  size: number;
  face: TextFace;
  /** Any Unicode: written as WinAnsi (see winAnsi), what it cannot hold as '?'. */
  text: string;
}

/** What textPdf writes. */
export interface TextPdfInput {
  /** Document title (the Info dictionary; any Unicode). */
  title: string;
  /** Producer in the Info dictionary. */
  producer: string;
  /** CreationDate (and ModDate) of the Info dictionary: the same input gives the same bytes. */
  createdAt: Date;
  /** Page size in points, [width, height]. */
  pageSize: [number, number];
  /** The runs of each page; at least one page is written. */
  pages: TextRun[][];
}

/**
 * Writes a PDF 1.7 file of text lines in Helvetica, by hand. pdf-lib took
 * ~3.6 ms of CPU for a one-page certificate of completion (text layout with
 * kerning, deflate of object streams in JS); this takes a few hundredths of
 * that: the fonts are standard 14 fonts (a name, no font program, PDF 1.7
 * 9.6.2.2), strings are WinAnsi bytes (Annex D.2), streams are left
 * uncompressed, and the cross-reference table is written from the offsets
 * recorded on the way (7.5.4). Deterministic: no time of writing, no random
 * file identifier.
 */
export function textPdf(input: TextPdfInput): Buffer {
  const pages = input.pages.length > 0 ? input.pages : [[]];
  // Objects: 1 catalog, 2 pages tree, 3 Helvetica, 4 Helvetica-Bold, 5 info, then page + content per page.
  const pageObject = (i: number) => 6 + 2 * i;
  const [width, height] = input.pageSize;
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageObject(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${textString(input.title)} /Producer ${textString(input.producer)} /CreationDate ${pdfDate(input.createdAt)} /ModDate ${pdfDate(input.createdAt)} >>`,
  ];
  for (const [i, runs] of pages.entries()) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(width)} ${num(height)}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObject(i) + 1} 0 R >>`,
    );
    const content = ['0.1 0.1 0.1 rg'];
    for (const run of runs) {
      content.push(
        `BT /${run.face === 'bold' ? 'F2' : 'F1'} ${num(run.size)} Tf ${num(run.x)} ${num(run.y)} Td ${byteString(winAnsi(run.text))} Tj ET`,
      );
    }
    const stream = content.join('\n');
    // Every byte of the file is below 0x80 except the header comment, so the string length is the byte length.
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  // The binary comment tells transfer tools the file is binary (7.5.2).
  let out = '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = out.length;
  // Each entry is exactly 20 bytes, "nnnnnnnnnn ggggg n" + space + LF (7.5.4).
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * Width of a text in points, as drawn by textPdf (Helvetica's AFM advance
 * widths of the WinAnsi bytes, without kerning: textPdf does not kern).
 */
export function textWidth(text: string, face: TextFace, size: number): number {
  const widths = face === 'bold' ? boldWidths() : regularWidths();
  const bytes = winAnsi(text);
  let total = 0;
  for (let i = 0; i < bytes.length; i++) total += widths[bytes.charCodeAt(i)]!;
  return (total * size) / 1000;
}

/**
 * The WinAnsi bytes of a text, as a string of char codes 0-255: Latin-1
 * letters as they are, the 27 letters WinAnsi puts in 0x80-0x9F (curly
 * quotes, dashes, €, …), control characters as spaces, anything else as '?'
 * (the standard fonts have no other glyphs).
 */
export function winAnsi(text: string): string {
  if (printableAscii.test(text)) return text;
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff)) out += c;
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) out += ' ';
    else out += winAnsiHigh.get(code) ?? '?';
  }
  return out;
}

// Most certificate text (ids, dates, sha256, addresses): the same bytes in WinAnsi, nothing to escape.
const printableAscii = /^[\x20-\x7e]*$/;
// Anything but printable ASCII other than ( ) and backslash needs escaping in a literal string.
const needsEscape = /[^\x20-\x27\x2a-\x5b\x5d-\x7e]/;

/** Unicode → WinAnsi code for the 0x80-0x9F block (PDF 1.7 Annex D.2). */
const winAnsiHigh = new Map<number, string>(
  (
    [
      [0x20ac, 0x80],
      [0x201a, 0x82],
      [0x0192, 0x83],
      [0x201e, 0x84],
      [0x2026, 0x85],
      [0x2020, 0x86],
      [0x2021, 0x87],
      [0x02c6, 0x88],
      [0x2030, 0x89],
      [0x0160, 0x8a],
      [0x2039, 0x8b],
      [0x0152, 0x8c],
      [0x017d, 0x8e],
      [0x2018, 0x91],
      [0x2019, 0x92],
      [0x201c, 0x93],
      [0x201d, 0x94],
      [0x2022, 0x95],
      [0x2013, 0x96],
      [0x2014, 0x97],
      [0x02dc, 0x98],
      [0x2122, 0x99],
      [0x0161, 0x9a],
      [0x203a, 0x9b],
      [0x0153, 0x9c],
      [0x017e, 0x9e],
      [0x0178, 0x9f],
    ] as const
  ).map(([unicode, code]) => [unicode, String.fromCharCode(code)]),
);
const unicodeOfCode = new Map([...winAnsiHigh].map(([unicode, byte]) => [byte.charCodeAt(0), unicode]));

/** Advance widths (1/1000 em) by WinAnsi code, read once from pdf-lib's copy of the Adobe metrics. */
function widthTable(font: StandardFonts): () => Float64Array {
  let table: Float64Array | undefined;
  return () => {
    if (table) return table;
    // StandardFonts and the embedder's FontNames are the same strings under two enum types.
    const embedder = StandardFontEmbedder.for(font as unknown as Parameters<typeof StandardFontEmbedder.for>[0]);
    table = new Float64Array(256);
    for (let code = 0x20; code <= 0xff; code++) {
      const unicode = code >= 0x80 && code < 0xa0 ? unicodeOfCode.get(code) : code === 0x7f ? undefined : code;
      table[code] = unicode === undefined ? 0 : embedder.widthOfTextAtSize(String.fromCodePoint(unicode), 1000);
    }
    return table;
  };
}
const regularWidths = widthTable(StandardFonts.Helvetica);
const boldWidths = widthTable(StandardFonts.HelveticaBold);

/** A literal string of WinAnsi bytes: ( ) \ escaped, bytes outside printable ASCII as octal (7.3.4.2). */
function byteString(bytes: string): string {
  if (!needsEscape.test(bytes)) return `(${bytes})`;
  let out = '(';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${bytes[i]}`;
    else if (code < 0x20 || code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += bytes[i];
  }
  return `${out})`;
}

/** A text string for the Info dictionary: UTF-16BE with its byte order mark, in hex (7.9.2.2). */
function textString(text: string): string {
  return `<${Buffer.from(`\ufeff${text}`, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}

/** A date as PDF writes it, in UTC: (D:YYYYMMDDHHmmSSZ) (7.9.4). */
function pdfDate(date: Date): string {
  const iso = date.toISOString();
  return `(D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z)`;
}

/** A number as PDF writes it: no exponent, at most 2 decimals. */
function num(n: number): string {
  return String(Math.round(n * 100) / 100);
}
