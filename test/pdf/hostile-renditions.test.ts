import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { RenditionError, renditionLimits, renditionOf, type RenditionLimits } from '../../src/pdf/index.js';
import { TextUnits, wrapLines } from '../../src/pdf/line-wrap.js';
import { minimalDocx } from '../helpers/minimal-docx.js';

/** The error a rendition stops with (it must stop with one). */
async function refusal(bytes: Uint8Array, extension: string, limits?: RenditionLimits): Promise<RenditionError> {
  const error = await renditionOf(bytes, extension, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenditionError);
  expect((error as RenditionError).code).toBe('SR_DOC_NOT_CONVERTIBLE');
  return error as RenditionError;
}

async function helvetica(): Promise<PDFFont> {
  return (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
}

/** The wrapping as it was before issue 36 (measure every candidate cut again): the lines it made are the reference. */
function referenceWrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  const measure = (s: string) => font.widthOfTextAtSize(s, size);
  const spaceWidth = measure(' ');
  for (const given of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const raw of given.split(' ')) {
      if (raw === '') continue;
      let word = raw;
      let wordWidth = measure(word);
      if (line !== '' && lineWidth + spaceWidth + wordWidth <= width) {
        line += ` ${word}`;
        lineWidth += spaceWidth + wordWidth;
        continue;
      }
      if (line !== '') lines.push(line);
      while (wordWidth > width) {
        let low = 1;
        let high = word.length;
        while (low < high) {
          const mid = Math.ceil((low + high) / 2);
          if (measure(word.slice(0, mid)) <= width) low = mid;
          else high = mid - 1;
        }
        lines.push(word.slice(0, low));
        word = word.slice(low);
        wordWidth = measure(word);
      }
      line = word;
      lineWidth = wordWidth;
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

describe('renditions of hostile documents (issue 36)', () => {
  it('wraps exactly as before, kerning pairs and cut words included', async () => {
    const font = await helvetica();
    const words = [
      'AVAVAVAV',
      'To',
      'Ty',
      'Wa',
      'yo',
      'LT',
      'P.',
      'contract',
      'é',
      '€100',
      'x'.repeat(200),
      'AV'.repeat(90),
    ];
    const text = Array.from({ length: 120 }, (_, i) => words[(i * 7) % words.length]).join(' ') + '\nsecond line';
    for (const width of [468, 450, 100, 20])
      expect([...wrapLines(text, font, 11, width)], String(width)).toEqual(referenceWrap(text, font, 11, width));
    // Codes above 255 (WinAnsi's quotes, dashes, euro) are remembered apart from
    // those under it: each width, and a whole text's, is pdf-lib's own.
    const units = new TextUnits(font);
    for (const mixed of ['¬ ¬€ “quoted” – — … ‘a’', '€¬ ¬ ¬a—€ “”'])
      expect(units.of(mixed), mixed).toBe(font.widthOfTextAtSize(mixed, 1000));
  });

  it('measures each character of a long word once, not the rest of the word again at every cut', async () => {
    const font = await helvetica();
    let measured = 0;
    const counting = new Proxy(font, {
      get(target, property) {
        if (property === 'widthOfTextAtSize')
          return (text: string, size: number) => {
            measured += text.length;
            return target.widthOfTextAtSize(text, size);
          };
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const word = 'x'.repeat(50_000);
    const lines = [...wrapLines(word, counting, 11, 468)];
    expect(lines.join('')).toBe(word);
    expect(lines.length).toBeGreaterThan(500);
    // A few characters and pairs, each once; the old wrapping measured ~40 million characters here.
    expect(measured).toBeLessThan(100);
  });

  it('refuses a 100 KB one-word HTML and a 5 MB one-word TXT at once, before any of it is laid out', async () => {
    const html = await refusal(Buffer.from(`<p>${'x'.repeat(100 * 1024)}</p>`), 'html');
    expect(html.limit).toBe('wordCharacters');
    const txt = await refusal(Buffer.alloc(5 * 1024 * 1024, 'x'), 'txt');
    expect(txt.limit).toBe('characters');
    // Below the limits a long word is still cut at the margin (document-rendition.test.ts reads it back).
    await expect(renditionOf(Buffer.from('x'.repeat(9_000)), 'txt')).resolves.toBeInstanceOf(Uint8Array);
  });

  it('counts a DOCX’s paragraphs before converting it: 100,000 are refused as paragraphs, not as pages once converted', async () => {
    const docx = minimalDocx(Array.from({ length: 100_000 }, (_, i) => ({ text: `p${i}` })));
    const error = await refusal(docx, 'docx');
    expect(error.limit).toBe('paragraphs');
    expect(error.message).toMatch(/more than 20,000 paragraphs/);
    // Counted whatever prefix the document gives WordprocessingML's namespace.
    const renamed = Buffer.from(minimalDocx([{ text: 'a' }, { text: 'b' }, { text: 'c' }]));
    await expect(renditionOf(renamed, 'docx', { ...renditionLimits, paragraphs: 3 })).resolves.toBeInstanceOf(
      Uint8Array,
    );
    expect((await refusal(renamed, 'docx', { ...renditionLimits, paragraphs: 2 })).limit).toBe('paragraphs');
  });

  it('checks the time at every line: one paragraph that takes too long stops inside it', async () => {
    let ticks = 0;
    const counting = () => ticks++;
    const paragraph = Array.from({ length: 20_000 }, (_, i) => `word${i}`).join(' ');
    const error = await refusal(Buffer.from(paragraph), 'txt', { ...renditionLimits, milliseconds: 50, now: counting });
    expect(error.limit).toBe('milliseconds');
    // Stopped about 50 lines in, not after the paragraph's ~1,500 lines.
    expect(ticks).toBeLessThan(60);
  });
});
