import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { parseJsonBody, decodeCleanBase64 } from '../../src/sandbox/platform/http/json-body.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

/** documentBase64 as hex whether a string (decoded here, as node does) or a Buffer (lifted), for comparing results. */
function comparable(value: unknown, key = ''): unknown {
  if (key === 'documentBase64' && (typeof value === 'string' || Buffer.isBuffer(value))) {
    return (typeof value === 'string' ? Buffer.from(value, 'base64') : value).toString('hex');
  }
  if (Array.isArray(value)) return value.map((v) => comparable(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v, k)]));
  return value;
}

describe('parseJsonBody: documentBase64 decoded from the bytes', () => {
  it('gives JSON.parse + base64 decoding for every length (padded, unpadded, URL-safe alphabet, several slices)', () => {
    for (const size of [1024, 1025, 1026, 1027, 12_288, 12_289, 40_000, 100_001]) {
      const doc = randomBytes(size);
      for (const encoded of [
        doc.toString('base64'),
        doc.toString('base64').replace(/=+$/, ''),
        doc.toString('base64url'),
      ]) {
        const text = `{"a":1,"documents":[{"documentId":"1","documentBase64" : \n"${encoded}","name":"x"}],"z":"documentBase64"}`;
        const parsed = parseJsonBody(Buffer.from(text)) as {
          documents: Array<{ documentBase64: unknown; name: string }>;
          z: string;
        };
        const value = parsed.documents[0]!.documentBase64;
        expect(Buffer.isBuffer(value), `size ${size}`).toBe(true);
        expect((value as Buffer).equals(doc), `size ${size}`).toBe(true);
        expect(parsed.documents[0]!.name).toBe('x');
        expect(parsed.z).toBe('documentBase64');
      }
    }
  });

  it('leaves to JSON.parse a value that is not plain base64 (escapes, spaces, non-ASCII), with the same result', () => {
    const encoded = randomBytes(3000).toString('base64');
    const variants = [
      encoded.replaceAll('/', '\\/'), // PHP's json_encode escapes slashes
      `${encoded.slice(0, 100)} ${encoded.slice(100)}`,
      `${encoded.slice(0, 100)}é${encoded.slice(100)}`,
      `${encoded.slice(0, 100)}\\n${encoded.slice(100)}`,
      `${encoded}===`,
      `${encoded.slice(0, 100)}=${encoded.slice(100)}`,
      `${encoded}A`, // a length no encoder writes
    ];
    for (const value of variants) {
      const text = `{"documents":[{"documentBase64":"${value}"}]}`;
      const parsed = parseJsonBody(Buffer.from(text)) as { documents: Array<{ documentBase64: unknown }> };
      expect(typeof parsed.documents[0]!.documentBase64, value.slice(95, 110)).toBe('string');
      expect(comparable(parsed)).toEqual(comparable(JSON.parse(text)));
    }
  });

  it('refuses what JSON.parse refuses, lifted value or not', () => {
    const encoded = randomBytes(3000).toString('base64');
    for (const text of [
      `{"documentBase64":"${encoded.slice(0, 100)}\n${encoded.slice(100)}"}`, // a raw line break inside a string
      `{"documentBase64":"${encoded}"`, // unterminated object
      `{"documentBase64":"${encoded}`, // unterminated string
      `{"documentBase64":"${encoded}",}`,
      `{"documentBase64" "${encoded}"}`,
    ]) {
      expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
      expect(() => parseJsonBody(Buffer.from(text))).toThrow(SyntaxError);
    }
  });

  it('finds keys only: the key text inside another string, or as a value, is left alone', () => {
    const encoded = randomBytes(2000).toString('base64');
    const text = JSON.stringify({
      emailBlurb: `see "documentBase64":"${encoded}"`,
      note: 'documentBase64',
      tricky: 'ends with a backslash \\',
      documentBase64: encoded,
    });
    const parsed = parseJsonBody(Buffer.from(text)) as Record<string, unknown>;
    expect(parsed['emailBlurb']).toBe(`see "documentBase64":"${encoded}"`);
    expect(parsed['note']).toBe('documentBase64');
    expect(parsed['tricky']).toBe('ends with a backslash \\');
    expect((parsed['documentBase64'] as Buffer).equals(Buffer.from(encoded, 'base64'))).toBe(true);
  });

  it('keeps a client string that looks like a placeholder, and small values as strings', () => {
    const text = JSON.stringify({
      a: '\u0000signrun-lifted-0000000000000000-0',
      documents: [{ documentBase64: 'JVBERi0=' }],
    });
    expect(parseJsonBody(Buffer.from(text))).toEqual(JSON.parse(text));
  });

  it('reads an empty or all-whitespace body as no body', () => {
    expect(parseJsonBody(Buffer.alloc(0))).toBeUndefined();
    expect(parseJsonBody(Buffer.from(' \n '))).toBeUndefined();
  });

  it('decodeCleanBase64 accepts exactly the base64 alphabet', () => {
    const encoded = Buffer.from(randomBytes(5000).toString('base64'));
    expect(decodeCleanBase64(encoded, 0, encoded.length)?.equals(Buffer.from(encoded.toString(), 'base64'))).toBe(true);
    for (const bad of [0x00, 0x0a, 0x20, 0x21, 0x2e, 0x3d, 0x7e, 0x80, 0xff]) {
      const copy = Buffer.from(encoded);
      copy[2500] = bad;
      expect(decodeCleanBase64(copy, 0, copy.length), `byte ${bad}`).toBeUndefined();
    }
  });
});

/**
 * A one-page PDF of about `paddingBytes` more, the padding an object no page
 * refers to: the body is as large, but nothing reads the padding. (makePdf's
 * padding is the document's subject, a string pdf-lib writes as UTF-16 hex:
 * 5 MB of it made a 20 MB PDF that took 12 s to make and 5 s to create on a
 * busy machine, issue 38; this one takes 1.3 s for both.)
 */
async function paddedPdf(title: string, paddingBytes: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(title, { x: 50, y: 780, size: 14, font });
  if (paddingBytes > 0) pdf.context.register(pdf.context.stream(new Uint8Array(paddingBytes).fill(0x78)));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

describe('envelope creation over HTTP with document-sized bodies', () => {
  let sandbox: RunningSandbox;
  let baseUrl: string;
  let pdf: Buffer;
  beforeAll(async () => {
    sandbox = await injectedSandbox();
    baseUrl = (await login(sandbox.rootUrl)).baseUrl;
    pdf = await makePdf(2, 'Lifted', 40_000);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('stores the exact bytes, whether the base64 is plain or has escaped slashes', async () => {
    const plain = JSON.stringify(documentEnvelope(pdf));
    const escaped = plain.replace(
      /"documentBase64":"([^"]*)"/,
      (_m, b64: string) => `"documentBase64":"${b64.replaceAll('/', '\\/')}"`,
    );
    expect(escaped).not.toBe(plain);
    for (const raw of [plain, escaped]) {
      const created = await call(`${baseUrl}/envelopes`, {
        headers: { ...authHeader(), 'content-type': 'application/json' },
        raw,
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const document = await call(
        `${baseUrl}/envelopes/${(created.json as { envelopeId: string }).envelopeId}/documents/1`,
        { headers: authHeader() },
      );
      expect(document.bytes.equals(pdf)).toBe(true);
    }
  });

  it('reads bodies of every size whole: one chunk, the reused buffer grown, and one of its own (over 4 MiB)', async () => {
    // Bodies (base64, 4/3 of the PDF) under the reused buffer's first 256 KiB, over it, over 4 MiB.
    for (const [padding, bodyOver] of [
      [0, 0],
      [400_000, 256 * 1024],
      [5_000_000, 4 * 1024 * 1024],
    ] as const) {
      const doc = await paddedPdf(`Size ${padding}`, padding);
      expect((doc.length * 4) / 3).toBeGreaterThan(bodyOver);
      const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: documentEnvelope(doc) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const document = await call(
        `${baseUrl}/envelopes/${(created.json as { envelopeId: string }).envelopeId}/documents/1`,
        { headers: authHeader() },
      );
      expect(document.bytes.equals(doc)).toBe(true);
    }
  });

  it('answers 400 INVALID_REQUEST_BODY to a raw line break inside documentBase64 (not JSON)', async () => {
    const b64 = pdf.toString('base64');
    const raw = JSON.stringify(documentEnvelope(pdf)).replace(b64, `${b64.slice(0, 2000)}\n${b64.slice(2000)}`);
    const r = await call(`${baseUrl}/envelopes`, {
      headers: { ...authHeader(), 'content-type': 'application/json' },
      raw,
    });
    expectApiError(r, 400, 'INVALID_REQUEST_BODY');
  });
});
