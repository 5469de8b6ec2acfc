import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, expectShape, login, makePdf } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// Issue 24 item 2: `documents/archive` (Swagger Documents_GetDocument's
// `archive` keyword: a ZIP of every PDF document and the certificate) over
// HTTP through inject(), its entries named as src/envelope/archive-names.ts decides;
// `portfolio`; and `include=documents` on the status listing, which gives
// sync the documentIds the ZIP does not carry.

let sandbox: RunningSandbox;
let baseUrl: string;
beforeAll(async () => {
  sandbox = await injectedSandbox({ hourlyLimit: 100_000 });
  ({ baseUrl } = await login(sandbox.rootUrl));
});
afterAll(async () => {
  await sandbox.close();
});

function pdfText(bytes: Uint8Array): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'signrun-archive-')), 'c.pdf');
  writeFileSync(file, bytes);
  return new Promise((resolve, reject) =>
    execFile('pdftotext', ['-layout', file, '-'], (error, stdout) =>
      error ? reject(new Error(`pdftotext failed: ${error.message}`)) : resolve(stdout),
    ),
  );
}

/** An envelope of three documents, two of them with one name, sent to one embedded signer. */
async function threeDocuments(): Promise<{ envelopeId: string; parts: Buffer[] }> {
  const signer = {
    name: 'Ada Martin',
    email: 'ada@example.com',
    recipientId: '1',
    routingOrder: '1',
    clientUserId: 'ada',
  };
  const parts = [await makePdf(1, 'contract'), await makePdf(2, 'annex'), await makePdf(1, 'contract again')];
  const r = await call(`${baseUrl}/envelopes`, {
    headers: authHeader(),
    body: documentEnvelope(parts[0]!, {
      documents: [
        { documentId: '1', name: 'contract.pdf', documentBase64: parts[0]!.toString('base64') },
        { documentId: '2', name: 'annex', documentBase64: parts[1]!.toString('base64') },
        { documentId: '3', name: 'contract.pdf', documentBase64: parts[2]!.toString('base64') },
      ],
      recipients: { signers: [signer] },
    }),
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return { envelopeId: r.json.envelopeId as string, parts };
}

describe('documents/archive', () => {
  it('is a ZIP of every document, in order, named as DocuSign names them, then Summary.pdf', async () => {
    const { envelopeId, parts } = await threeDocuments();
    const r = await call(`${baseUrl}/envelopes/${envelopeId}/documents/archive`, { headers: authHeader() });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/zip');
    expect(r.headers.get('content-disposition')).toBe(`file; filename="${envelopeId}.zip"`);
    expect(Number(r.headers.get('content-length'))).toBe(r.bytes.length);
    const entries = unzipSync(r.bytes);
    expect(Object.keys(entries)).toEqual(['contract.pdf', 'annex.pdf', 'contract[1].pdf', 'Summary.pdf']);
    // Not yet completed: served as DocuSign serves an envelope in progress — the documents
    // as they stand (unsigned) and the certificate of what happened so far.
    expect(Buffer.from(entries['contract.pdf']!).equals(parts[0]!)).toBe(true);
    expect(Buffer.from(entries['annex.pdf']!).equals(parts[1]!)).toBe(true);
    expect(Buffer.from(entries['contract[1].pdf']!).equals(parts[2]!)).toBe(true);
    const certificate = await pdfText(entries['Summary.pdf']!);
    expect(certificate).toContain(envelopeId);
    expect(certificate).toContain('Status: sent');
  });

  it('serves the signed documents of a completed envelope, the same bytes as each document download', async () => {
    const { envelopeId } = await threeDocuments();
    const stamped = await makePdf(1, 'signed contract');
    sandbox.app.sandbox.lifecycle.markSigned(envelopeId, '1', {
      ip: '198.51.100.4',
      userAgent: 'ua',
      documents: new Map([['1', stamped]]),
    });
    const r = await call(`${baseUrl}/envelopes/${envelopeId}/documents/archive`, { headers: authHeader() });
    const entries = unzipSync(r.bytes);
    expect(Buffer.from(entries['contract.pdf']!).equals(stamped)).toBe(true);
    for (const [id, name] of [
      ['2', 'annex.pdf'],
      ['3', 'contract[1].pdf'],
    ] as const) {
      const one = await call(`${baseUrl}/envelopes/${envelopeId}/documents/${id}`, { headers: authHeader() });
      expect(Buffer.from(entries[name]!).equals(one.bytes)).toBe(true);
    }
    expect(await pdfText(entries['Summary.pdf']!)).toContain('Status: completed');
  });

  it('answers DocuSign’s ENVELOPE_DOES_NOT_EXIST (400, as the Swagger’s only error answer) for an unknown envelope', async () => {
    expectApiError(
      await call(`${baseUrl}/envelopes/00000000-0000-4000-8000-000000000000/documents/archive`, {
        headers: authHeader(),
      }),
      400,
      'ENVELOPE_DOES_NOT_EXIST',
    );
  });
});

describe('documents/portfolio', () => {
  it('is one PDF carrying every document and the certificate as embedded files, with a /Collection', async () => {
    const { envelopeId, parts } = await threeDocuments();
    const r = await call(`${baseUrl}/envelopes/${envelopeId}/documents/portfolio`, { headers: authHeader() });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    const doc = await PDFDocument.load(r.bytes);
    expect(doc.catalog.get(PDFName.of('Collection'))).toBeInstanceOf(PDFDict);
    const names = doc.catalog.lookup(PDFName.of('Names'), PDFDict);
    const files = names.lookup(PDFName.of('EmbeddedFiles'), PDFDict);
    // A name tree's leaf: [name₁ spec₁ name₂ spec₂ …], the names as PDF text strings.
    const leaf = files.lookup(PDFName.of('Names'), PDFArray).asArray();
    const listed = leaf.filter((_, i) => i % 2 === 0).map((n) => (n as PDFHexString | PDFString).decodeText());
    expect([...listed].sort()).toEqual(['Summary.pdf', 'annex.pdf', 'contract.pdf', 'contract[1].pdf']);
    // Each embedded file is the document's bytes (the file stream, inflated).
    const annex = leaf[2 * listed.indexOf('annex.pdf') + 1]!;
    const spec = doc.context.lookup(annex, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F')) as PDFRawStream;
    expect(Buffer.from(decodePDFRawStream(stream).decode()).equals(parts[1]!)).toBe(true);
  });
});

describe('the status listing with include=documents', () => {
  it('gives each envelope its documents (ids, names, sizes) as #/definitions/envelope has them, with no certificate', async () => {
    const { envelopeId, parts } = await threeDocuments();
    for (const version of ['v2', 'v2.1'] as const) {
      const versioned = baseUrl.replace('/restapi/v2/', `/restapi/${version}/`);
      const r = await call(`${versioned}/envelopes?envelope_ids=${envelopeId}&include=recipients,documents`, {
        headers: authHeader(),
      });
      expect(r.status).toBe(200);
      expectShape('envelopesInformation', r.json, version);
      const listed = r.json.envelopes[0].envelopeDocuments as Array<Record<string, string>>;
      expect(listed.map((d) => [d['documentId'], d['name'], d['sizeBytes']])).toEqual([
        ['1', 'contract.pdf', String(parts[0]!.length)],
        ['2', 'annex', String(parts[1]!.length)],
        ['3', 'contract.pdf', String(parts[2]!.length)],
      ]);
    }
    // Without it, none: the listing stays as small as before for those who do not ask.
    const plain = await call(`${baseUrl}/envelopes?envelope_ids=${envelopeId}&include=recipients`, {
      headers: authHeader(),
    });
    expect(plain.json.envelopes[0].envelopeDocuments).toBeUndefined();
  });
});
