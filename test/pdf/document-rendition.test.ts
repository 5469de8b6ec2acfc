import { describe, expect, it } from 'vitest';
import {
  extensionOf,
  findAnchors,
  readPageText,
  RenditionError,
  renditionKindOf,
  renditionLimits,
  renditionOf,
} from '../../src/pdf/index.js';
import { minimalDocx, zip } from '../helpers/minimal-docx.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { popplerWords } from './poppler.js';

/** The text poppler (an independent reader) finds, one line per line, blank lines dropped. */
async function textOf(pdf: Uint8Array): Promise<string[]> {
  const { code, out } = await tool('pdftotext', [tempPdf(pdf), '-']);
  expect(code).toBe(0);
  return out
    .split('\n')
    .map((l) => l.replace(/\f/g, '').trim())
    .filter((l) => l !== '');
}

const docx = () =>
  minimalDocx([
    { text: 'Offer letter', heading: 1 },
    { text: 'Dear Ann Lee, we are glad to offer you the position.' },
    { text: 'Terms', heading: 2 },
    { text: 'Please sign here: /sig1/' },
  ]);

const html = Buffer.from(`<!doctype html>
<html><head><title>Not shown</title><style>p { color: red }</style></head>
<body>
  <h1>Offer &amp; terms</h1>
  <p>First   paragraph,
     wrapped in the source.</p>
  <script>document.write('not text')</script>
  <ul><li>Salary: 50,000</li><li>Start: Monday</li></ul>
  <p>Line one<br>Line two</p>
  <h3>Signature</h3>
  <p>Sign: <b>/sig1/</b></p>
</body></html>`);

const txt = Buffer.from('Contract\n\nThe parties agree.\nSecond line, kept as a line.\n\nSigned: /sig1/ Français\n');

describe('renditionOf', () => {
  it('renders a DOCX: headings and paragraphs in order, the heading larger and bold, on a US Letter page', async () => {
    const pdf = await renditionOf(docx(), 'docx');
    expect(await textOf(pdf)).toEqual([
      'Offer letter',
      'Dear Ann Lee, we are glad to offer you the position.',
      'Terms',
      'Please sign here: /sig1/',
    ]);
    const [page] = await popplerWords(tempPdf(pdf));
    expect([page!.width, page!.height]).toEqual([612, 792]);
    const height = (word: string) => page!.words.find((w) => w.word === word)!;
    const offer = height('Offer');
    const dear = height('Dear');
    expect(offer.yMax - offer.yMin).toBeGreaterThan(1.5 * (dear.yMax - dear.yMin));
    // Inside the one-inch margins.
    expect(Math.min(...page!.words.map((w) => w.xMin))).toBeCloseTo(72, 0);
    expect(offer.yMin).toBeGreaterThanOrEqual(72);
    const fonts = await tool('pdffonts', [tempPdf(pdf)]);
    expect(fonts.out).toMatch(/Helvetica-Bold/);
  });

  it('renders HTML: headings, paragraphs, list items and line breaks; no head, script or style; entities decoded', async () => {
    expect(await textOf(await renditionOf(html, 'html'))).toEqual([
      'Offer & terms',
      'First paragraph, wrapped in the source.',
      '• Salary: 50,000',
      '• Start: Monday',
      'Line one',
      'Line two',
      'Signature',
      'Sign: /sig1/',
    ]);
    // .htm is the same kind.
    expect(await renditionOf(html, 'htm')).toEqual(await renditionOf(html, 'html'));
  });

  it('renders a table row as one line, its cells apart, also when each cell is a paragraph (a Word table)', async () => {
    const table = [
      ['Component', 'Details'],
      ['Salary', 'EUR 72000 a year'],
      ['Holidays', '27 days'],
    ];
    const lines = [
      'Compensation:',
      'Component Details',
      'Salary EUR 72000 a year',
      'Holidays 27 days',
      'Signed: /sig1/',
    ];
    const word = minimalDocx([{ text: 'Compensation:' }, { text: '', table }, { text: 'Signed: /sig1/' }]);
    expect(await textOf(await renditionOf(word, 'docx'))).toEqual(lines);
    // The HTML mammoth writes for it (<td><p>…</p></td>), and the same table written by hand.
    const cells = (wrap: (t: string) => string) =>
      `<table>${table.map((row) => `<tr>${row.map((c) => `<td>${wrap(c)}</td>`).join('')}</tr>`).join('')}</table>`;
    for (const wrap of [(t: string) => `<p>${t}</p>`, (t: string) => t]) {
      const page = `<p>Compensation:</p>${cells(wrap)}<p>Signed: /sig1/</p>`;
      expect(await textOf(await renditionOf(Buffer.from(page), 'html'))).toEqual(lines);
    }
  });

  it('renders TXT as UTF-8, its lines kept', async () => {
    expect(await textOf(await renditionOf(txt, 'txt'))).toEqual([
      'Contract',
      'The parties agree.',
      'Second line, kept as a line.',
      'Signed: /sig1/ Français',
    ]);
  });

  it('lets readPageText and findAnchors find an anchor in the rendition, where poppler sees it', async () => {
    for (const [bytes, extension] of [
      [docx(), 'docx'],
      [html, 'html'],
      [txt, 'txt'],
    ] as const) {
      const pdf = await renditionOf(bytes, extension);
      const matches = findAnchors(await readPageText(pdf), { anchorString: '/sig1/' });
      expect(matches, extension).toHaveLength(1);
      const [page] = await popplerWords(tempPdf(pdf));
      const word = page!.words.find((w) => w.word === '/sig1/')!;
      expect(matches[0]!.box.left).toBeCloseTo(word.xMin, 0);
      expect(matches[0]!.box.bottom).toBeGreaterThan(word.yMin);
      expect(matches[0]!.box.top).toBeLessThan(word.yMax);
    }
  });

  it('word-wraps long paragraphs inside the margins and starts new pages when one is full', async () => {
    const words = Array.from({ length: 6000 }, (_, i) => `word${i}`);
    const pdf = await renditionOf(Buffer.from(`<p>${words.join(' ')}</p><p>${'x'.repeat(500)}</p>`), 'html');
    const pages = await popplerWords(tempPdf(pdf));
    expect(pages.length).toBeGreaterThan(5);
    const all = pages.flatMap((p) => p.words);
    // Every word, in order, none lost at a line or page break.
    expect(all.filter((w) => w.word.startsWith('word')).map((w) => w.word)).toEqual(words);
    for (const p of pages) {
      expect([p.width, p.height]).toEqual([612, 792]);
      for (const w of p.words) {
        expect(w.xMin).toBeGreaterThanOrEqual(71.5);
        expect(w.xMax).toBeLessThanOrEqual(540.5);
        expect(w.yMin).toBeGreaterThanOrEqual(71.5);
        expect(w.yMax).toBeLessThanOrEqual(720.5);
      }
    }
    // A word longer than a line is cut at the margin, not drawn past it.
    expect(
      all
        .filter((w) => /^x+$/.test(w.word))
        .map((w) => w.word)
        .join(''),
    ).toBe('x'.repeat(500));
  });

  it('is deterministic: the same document gives the same bytes', async () => {
    for (const [bytes, extension] of [
      [docx(), 'docx'],
      [html, 'html'],
      [txt, 'txt'],
    ] as const) {
      const first = await renditionOf(bytes, extension);
      const second = await renditionOf(Buffer.from(bytes), extension);
      expect(Buffer.from(second).equals(Buffer.from(first)), extension).toBe(true);
    }
  });

  it('draws characters Helvetica cannot encode as their base letter or ?, without failing', async () => {
    const pdf = await renditionOf(Buffer.from('Łódź 漢字 😀 Ŝ\u0007end'), 'txt');
    expect(await textOf(pdf)).toEqual(['?ódz ?? ? Send']);
  });

  it('refuses what it cannot read, and stops at its limits, with SR_DOC_NOT_CONVERTIBLE', async () => {
    const refusal = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RenditionError);
      expect((error as RenditionError).code).toBe('SR_DOC_NOT_CONVERTIBLE');
      return error as RenditionError;
    };
    expect((await refusal(renditionOf(Buffer.from('not a zip'), 'docx'))).limit).toBeUndefined();
    // A zip that is not a Word document.
    expect((await refusal(renditionOf(zip([['a.txt', 'hello']]), 'docx'))).limit).toBeUndefined();
    // 64 MiB of XML in a 64 KiB part: refused before mammoth unpacks it.
    const bomb = zip([['word/document.xml', Buffer.alloc(64 * 1024 * 1024, 0x20)]]);
    expect(bomb.length).toBeLessThan(128 * 1024);
    const small = { ...renditionLimits, unpackedBytes: 1024 * 1024 };
    expect((await refusal(renditionOf(bomb, 'docx', small))).limit).toBe('unpackedBytes');
    // A part that unpacks to more than its entry claims is caught too.
    const liar = zip([['word/document.xml', 'x'.repeat(1000)]]);
    liar.writeUInt32LE(10, liar.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    expect((await refusal(renditionOf(liar, 'docx'))).message).toMatch(/more than its entry says/);
    const many = zip(Array.from({ length: 20 }, (_, i) => [`p${i}.xml`, '<x/>'] as [string, string]));
    expect((await refusal(renditionOf(many, 'docx', { ...renditionLimits, zipEntries: 10 }))).limit).toBe('zipEntries');
    const long = Buffer.from('line\n\n'.repeat(500));
    expect((await refusal(renditionOf(long, 'txt', { ...renditionLimits, pages: 2 }))).limit).toBe('pages');
  });

  it('knows its kinds by extension, any case, with or without the dot; PDFs and others are not its', () => {
    expect(['docx', '.DOCX', 'html', 'HTM', 'txt', 'pdf', 'doc', ''].map(renditionKindOf)).toEqual([
      'docx',
      'docx',
      'html',
      'html',
      'txt',
      undefined,
      undefined,
      undefined,
    ]);
    expect(['offer.DOCX', 'a/b.c/readme', '.htaccess', 'x.tar.txt', 'dir\\page.htm'].map(extensionOf)).toEqual([
      'docx',
      '',
      '',
      'txt',
      'htm',
    ]);
  });
});
