import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { injectedSandbox } from './helpers/injected-sandbox.js';
import { authHeader, call, makePdf } from './helpers/api.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { offLoopJsonAbove } from '../../src/sandbox/platform/http/large-json-body.js';
import { defaultSeedIds } from '../../src/sandbox/index.js';
import { builtDocumentWork, type WorkerGate } from './helpers/built-document-work.js';
import { docxOfBody, paragraphOfRuns } from '../helpers/docx-of-body.js';
import { minimalDocx } from '../helpers/minimal-docx.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import {
  multipartOnLoopParts,
  type DocumentWorkStats,
} from '../../src/sandbox/esignature/document-work/document-work.js';

// Issue 36: the sandbox's work on a client's bytes runs on a pool of worker
// threads (document-work-pool.ts), never on the event loop. These tests use
// the built worker (dist/) behind a gate they hold (helpers/gated-document-
// worker.mjs): a document named `held…` keeps its thread busy until the test
// opens the gate, so "while a conversion is in flight" is a fact the test
// arranges, not a race against a clock.

const envelopesUrl = (s: RunningSandbox) => `${s.rootUrl}/accounts/${defaultSeedIds.accountId}/envelopes`;

function textEnvelope(name: string, text: string | Buffer) {
  return {
    emailSubject: 'Please sign',
    status: 'sent',
    documents: [{ documentId: '1', name, fileExtension: 'txt', documentBase64: Buffer.from(text).toString('base64') }],
    recipients: { signers: [{ name: 'Ann', email: 'ann@example.com', recipientId: '1', tabs: {} }] },
  };
}

async function health(s: RunningSandbox): Promise<DocumentWorkStats> {
  const answer = await call(`${s.origin}/sandbox/health`);
  expect(answer.status).toBe(200);
  return answer.json.documentWork as DocumentWorkStats;
}

/** A request's answer, and whether it has come yet. */
function pending<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  void promise.finally(() => (state.settled = true));
  return state;
}

/**
 * While the gate holds `request`'s work on a thread: health answers (a task
 * running) and another user's envelope is made. Fails when the request is
 * answered before a thread holds its work (the work done on the event loop).
 */
async function servedWhileHeld(sandbox: RunningSandbox, gate: WorkerGate, request: Promise<unknown>, what: string) {
  const held = pending(request);
  await Promise.race([
    gate.held(),
    held.promise.then(() => Promise.reject(new Error(`${what} was answered before a thread held its work`))),
  ]);
  expect(await health(sandbox)).toMatchObject({ mode: 'threads', running: 1 });
  const other = await call(envelopesUrl(sandbox), {
    headers: authHeader(),
    body: textEnvelope('b.txt', 'Hello'),
  });
  expect(other.status).toBe(201);
  expect(held.settled).toBe(false);
}

/** An envelope of one PDF, sent, with the subject and document name given. */
async function pdfEnvelope(sandbox: RunningSandbox, emailSubject: string, name: string): Promise<string> {
  const made = await call(envelopesUrl(sandbox), {
    headers: authHeader(),
    body: {
      emailSubject,
      status: 'sent',
      documents: [{ documentId: '1', name, documentBase64: (await makePdf(1)).toString('base64') }],
      recipients: { signers: [{ name: 'Ann', email: 'ann@example.com', recipientId: '1' }] },
    },
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  return made.json.envelopeId as string;
}

describe('document pool', () => {
  // One pool and one sandbox for these tests (a pool's first thread loads pdf.js, pdf-lib and mammoth: most of a
  // test's time when each had its own); the gate is shut again before each.
  let sandbox: RunningSandbox;
  let gate: WorkerGate;
  beforeAll(async () => {
    // No deadline here (a signal never fired): a task held at the gate while, on a loaded machine, the other
    // thread starts for another user's document must not be refused at 8 s; the thread-given-up tests below
    // fire theirs. The hostile documents are refused by the converter's own limits.
    const built = builtDocumentWork({ threads: 2, deadline: () => new AbortController().signal });
    gate = built.gate;
    sandbox = await injectedSandbox({}, { documentWork: built.work });
  });
  afterAll(async () => {
    gate.open();
    await sandbox.close();
  });
  beforeEach(() => gate.reset());
  afterEach(() => gate.open());

  it('answers health and another user’s envelope while a document converts, then converts it', async () => {
    const slow = pending(
      call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('held.txt', 'Signed: /sn1/') }),
    );
    await Promise.race([
      gate.held(),
      slow.promise.then((r) => Promise.reject(new Error(`answered ${r.status} before a thread held it`))),
    ]);
    // A thread holds the document: health answers, and says so.
    expect(await health(sandbox)).toMatchObject({ mode: 'threads', running: 1 });
    // Another envelope — a PDF, and a TXT that needs the other thread — is made meanwhile.
    const pdf = await call(envelopesUrl(sandbox), {
      headers: authHeader(),
      body: {
        emailSubject: 'Other',
        status: 'sent',
        documents: [{ documentId: '1', name: 'a.pdf', documentBase64: (await makePdf(1)).toString('base64') }],
        recipients: { signers: [{ name: 'Bo', email: 'bo@example.com', recipientId: '1' }] },
      },
    });
    expect(pdf.status).toBe(201);
    const txt = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(txt.status).toBe(201);
    expect(slow.settled).toBe(false);
    expect((await health(sandbox)).running).toBe(1);

    gate.open();
    expect((await slow.promise).status).toBe(201);
  });

  // Issue 36's three hostile documents, each refused with DocuSign's code for a document it cannot convert.
  it.each([
    ['a 5 MB one-word TXT', 'word.txt', () => Buffer.alloc(5 << 20, 'x')],
    ['a 100 KB one-word HTML', 'word.html', () => Buffer.from(`<p>${'x'.repeat(100 * 1024)}</p>`)],
    [
      'a DOCX of 100,000 paragraphs',
      'paragraphs.docx',
      () => minimalDocx(Array.from({ length: 100_000 }, (_, i) => ({ text: `p${i}` }))),
    ],
  ])('answers health while %s is refused on a thread', async (_, name, bytes) => {
    const body = textEnvelope(name, bytes());
    body.documents[0]!.fileExtension = name.split('.').pop()!;
    const hostile = pending(call(envelopesUrl(sandbox), { headers: authHeader(), body }));
    // Health is asked until an answer says the work is under way: an answer given while a thread works
    // on the document. On the event loop (before issue 36) no answer could come before the refusal.
    let seenRunning = false;
    while (!hostile.settled && !seenRunning) seenRunning = (await health(sandbox)).running > 0;
    expect(seenRunning).toBe(true);
    const refused = await hostile.promise;
    expect(refused.status).toBe(400);
    expect(refused.json.errorCode).toBe('FORMAT_CONVERSION_ERROR');
  });

  it('answers health and another user’s envelope while a large JSON body is parsed on a thread', async () => {
    // A body above the threshold: a PDF padded to 600 KB; its subject is the gate's mark for the thread.
    const pdf = await makePdf(1, 'Large', 600_000);
    const body = {
      emailSubject: 'held-body',
      status: 'sent',
      documents: [{ documentId: '1', name: 'large.pdf', documentBase64: pdf.toString('base64') }],
      recipients: { signers: [{ name: 'Ann', email: 'ann@example.com', recipientId: '1' }] },
    };
    expect(JSON.stringify(body).length).toBeGreaterThan(offLoopJsonAbove);
    const large = pending(call(envelopesUrl(sandbox), { headers: authHeader(), body }));
    await Promise.race([
      gate.held(),
      large.promise.then((r) => Promise.reject(new Error(`answered ${r.status} before a thread held its body`))),
    ]);
    // A thread holds the body: health answers, and another user's envelope is made meanwhile.
    expect(await health(sandbox)).toMatchObject({ mode: 'threads', running: 1 });
    const other = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(other.status).toBe(201);
    expect(large.settled).toBe(false);

    gate.open();
    const made = await large.promise;
    expect(made.status).toBe(201);
    // The document decoded on the thread is the one sent, byte for byte.
    const stored = await call(`${envelopesUrl(sandbox)}/${made.json.envelopeId as string}/documents/1`, {
      headers: authHeader(),
    });
    expect(stored.bytes.equals(pdf)).toBe(true);
  });

  it('reads a large body on a thread as on the event loop: base64 with line breaks, and bad JSON refused alike', async () => {
    const pdf = await makePdf(1, 'Wrapped', 600_000);
    // MIME-style base64 (a line break every 76 characters) is not lifted by the byte scanner: the thread decodes it.
    const wrapped = pdf.toString('base64').replace(/.{76}/g, '$&\\n');
    const raw = `{"emailSubject":"Wrapped","status":"sent","documents":[{"documentId":"1","name":"w.pdf","documentBase64":"${wrapped}"}],"recipients":{"signers":[{"name":"Ann","email":"ann@example.com","recipientId":"1"}]}}`;
    const headers = { ...authHeader(), 'content-type': 'application/json' };
    const made = await call(envelopesUrl(sandbox), { headers, raw });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const stored = await call(`${envelopesUrl(sandbox)}/${made.json.envelopeId as string}/documents/1`, {
      headers: authHeader(),
    });
    expect(stored.bytes.equals(pdf)).toBe(true);
    expect((await health(sandbox)).running).toBe(0);

    // Bad JSON, large and small: DocuSign's answer, the same either way.
    const large = await call(envelopesUrl(sandbox), { headers, raw: `${raw.slice(0, -1)},}` });
    const small = await call(envelopesUrl(sandbox), { headers, raw: '{"emailSubject":"x",}' });
    expect(large.status).toBe(400);
    expect(large.json).toEqual(small.json);
    expect(small.json).toMatchObject({ errorCode: 'INVALID_REQUEST_BODY' });
  });

  it('answers health and another user’s envelope while a signature is stamped on a thread', async () => {
    const created = await call(envelopesUrl(sandbox), {
      headers: authHeader(),
      body: {
        emailSubject: 'Sign it',
        status: 'sent',
        documents: [{ documentId: '1', name: 'a.pdf', documentBase64: (await makePdf(1)).toString('base64') }],
        recipients: {
          signers: [
            {
              name: 'Ann',
              email: 'ann@example.com',
              recipientId: '1',
              clientUserId: 'ann-1',
              tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] },
            },
          ],
        },
      },
    });
    expect(created.status).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const view = await call(`${envelopesUrl(sandbox)}/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        email: 'ann@example.com',
        userName: 'Ann',
        clientUserId: 'ann-1',
        authenticationMethod: 'none',
        returnUrl: 'http://127.0.0.1:9/done',
      },
    });
    const { sessionUrl, cookie, csrf } = await openSigningLink(view.json.url as string);
    const signing = pending(postForm(`${sessionUrl}/sign`, cookie, { signatureName: 'held Ann', csrfToken: csrf }));
    await Promise.race([
      gate.held(),
      signing.promise.then((r) => Promise.reject(new Error(`answered ${r.status} before a thread held the stamp`))),
    ]);
    expect(await health(sandbox)).toMatchObject({ mode: 'threads', running: 1 });
    const other = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(other.status).toBe(201);
    expect(signing.settled).toBe(false);

    gate.open();
    const signed = await signing.promise;
    expect(signed.status).toBe(303);
    expect(signed.headers.get('location')).toContain('event=signing_complete');
    // Stamped and sealed on the pool: the envelope is completed with a sealed document.
    const envelope = await call(`${envelopesUrl(sandbox)}/${envelopeId}`, { headers: authHeader() });
    expect(envelope.json.status).toBe('completed');
    const document = await call(`${envelopesUrl(sandbox)}/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(document.bytes.includes(Buffer.from('/ByteRange'))).toBe(true);
    // The combined download is made on the pool too: the document and the certificate in one PDF.
    const combined = await call(`${envelopesUrl(sandbox)}/${envelopeId}/documents/combined`, { headers: authHeader() });
    expect(combined.status).toBe(200);
    expect((await PDFDocument.load(combined.bytes)).getPageCount()).toBe(2);
  });

  it('answers health and another user’s envelope while a DocGen DOCX’s merge fields are listed on a thread', async () => {
    const letter = docxOfBody(paragraphOfRuns('Dear {{Candidate_Name}},') + paragraphOfRuns('Sign here:'));
    const draft = await call(envelopesUrl(sandbox), {
      headers: authHeader(),
      body: {
        emailSubject: 'Your offer',
        status: 'created',
        documents: [
          {
            documentId: '1',
            name: 'offer.docx',
            fileExtension: 'docx',
            isDocGenDocument: 'true',
            documentBase64: letter.toString('base64'),
          },
        ],
        recipients: { signers: [{ recipientId: '1', name: 'Ada', email: 'ada@example.com' }] },
      },
    });
    expect(draft.status, JSON.stringify(draft.json)).toBe(201);
    // Held by its op: the DOCX's bytes carry no mark the gate could read (its XML is deflated).
    gate.hold(['mergeFields']);
    const listing = call(`${envelopesUrl(sandbox)}/${draft.json.envelopeId as string}/docGenFormFields`, {
      headers: authHeader(),
    });
    await servedWhileHeld(sandbox, gate, listing, 'the merge-field listing');

    gate.open();
    const fields = await listing;
    expect(fields.status).toBe(200);
    expect(fields.json.docGenFormFields[0].docGenFormFieldList.map((f: { name: string }) => f.name)).toEqual([
      'Candidate_Name',
    ]);
  });

  it('answers health and another user’s envelope while a multipart body of many parts is split on a thread', async () => {
    // More parts than are split on the event loop (the other parts match no document, and are left);
    // the definition's subject is the gate's mark for the thread.
    const pdf = await makePdf(1, 'Parts');
    const definition = {
      emailSubject: 'held-body',
      status: 'sent',
      documents: [{ documentId: '1', name: 'a.pdf' }],
      recipients: { signers: [{ name: 'Ann', email: 'ann@example.com', recipientId: '1' }] },
    };
    const boundary = 'HELD-BOUNDARY';
    const part = (headers: string, body: string | Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
    const others = Array.from({ length: multipartOnLoopParts }, (_, i) =>
      part('Content-Disposition: form-data; name="note"', `note ${i}`),
    );
    const raw = Buffer.concat([
      part('Content-Type: application/json\r\nContent-Disposition: form-data', JSON.stringify(definition)),
      part('Content-Type: application/pdf\r\nContent-Disposition: file; filename="a.pdf"; documentid=1', pdf),
      ...others,
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const made = call(envelopesUrl(sandbox), {
      headers: { ...authHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      raw,
    });
    await servedWhileHeld(sandbox, gate, made, 'the multipart envelope');

    gate.open();
    const created = await made;
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    // The part split on the thread is the document sent, byte for byte.
    const stored = await call(`${envelopesUrl(sandbox)}/${created.json.envelopeId as string}/documents/1`, {
      headers: authHeader(),
    });
    expect(stored.bytes.equals(pdf)).toBe(true);
  });

  it('answers health and another user’s envelope while the certificate of completion is written on a thread', async () => {
    const envelopeId = await pdfEnvelope(sandbox, 'held certificate', 'a.pdf');
    const certificate = call(`${envelopesUrl(sandbox)}/${envelopeId}/documents/certificate`, {
      headers: authHeader(),
    });
    await servedWhileHeld(sandbox, gate, certificate, 'the certificate');

    gate.open();
    const answer = await certificate;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect((await PDFDocument.load(answer.bytes)).getPageCount()).toBeGreaterThan(0);
    expect(answer.bytes.includes(Buffer.from(envelopeId))).toBe(true);
  });

  it('answers health and another user’s envelope while a PDF portfolio is made on a thread', async () => {
    const envelopeId = await pdfEnvelope(sandbox, 'Portfolio', 'held.pdf');
    const portfolio = call(`${envelopesUrl(sandbox)}/${envelopeId}/documents/portfolio`, { headers: authHeader() });
    await servedWhileHeld(sandbox, gate, portfolio, 'the portfolio');

    gate.open();
    const answer = await portfolio;
    expect(answer.status).toBe(200);
    // The document and the certificate, attached to the cover page.
    const doc = await PDFDocument.load(answer.bytes);
    expect(doc.catalog.get(PDFName.of('Collection'))).toBeInstanceOf(PDFDict);
    const files = doc.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict);
    const leaf = files.lookup(PDFName.of('Names'), PDFArray).asArray();
    const listed = leaf.filter((_, i) => i % 2 === 0).map((n) => (n as PDFHexString | PDFString).decodeText());
    expect([...listed].sort()).toEqual(['Summary.pdf', 'held.pdf']);
  });
});

describe('document pool: a thread given up', () => {
  // One pool of one thread for both: each test ends its thread, and checks that the next task gets a new one.
  // Each task's deadline is a signal the test fires: "past its deadline" is a step here, not seconds waited.
  const deadlines: AbortController[] = [];
  let sandbox: RunningSandbox;
  let gate: WorkerGate;
  beforeAll(async () => {
    const built = builtDocumentWork({
      threads: 1,
      memoryMb: 64,
      deadline: () => {
        const deadline = new AbortController();
        deadlines.push(deadline);
        return deadline.signal;
      },
    });
    gate = built.gate;
    sandbox = await injectedSandbox({}, { documentWork: built.work });
  });
  afterAll(async () => {
    gate.open();
    await sandbox.close();
  });

  it('refuses a document past its deadline with FORMAT_CONVERSION_ERROR and replaces the thread', async () => {
    // Held and never let go: only the deadline ends it.
    const held = call(envelopesUrl(sandbox), {
      headers: authHeader(),
      body: textEnvelope('held.txt', 'Signed: /sn1/'),
    });
    await gate.held();
    deadlines.at(-1)!.abort();
    const refused = await held;
    expect(refused.status).toBe(400);
    expect(refused.json.errorCode).toBe('FORMAT_CONVERSION_ERROR');
    expect(await health(sandbox)).toMatchObject({ timedOut: 1, running: 0 });
    // The one thread was ended; a new one converts the next document.
    const next = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(next.status).toBe(201);
  });

  it('refuses a document past the memory limit with FORMAT_CONVERSION_ERROR and replaces the thread', async () => {
    const grown = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('grow.txt', 'x') });
    expect(grown.status).toBe(400);
    expect(grown.json.errorCode).toBe('FORMAT_CONVERSION_ERROR');
    expect(await health(sandbox)).toMatchObject({ outOfMemory: 1, running: 0 });
    const next = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(next.status).toBe(201);
  });
});
