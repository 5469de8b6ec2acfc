import { afterEach, describe, expect, it } from 'vitest';
import { injectedSandbox } from './helpers/injected-sandbox.js';
import { authHeader, call, makePdf } from './helpers/api.js';
import { defaultSeedIds } from '../../src/sandbox/index.js';
import { builtDocumentWork } from './helpers/built-document-work.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { DocumentWorkStats } from '../../src/sandbox/esignature/document-work/document-work.js';

// Issue 36: the sandbox's work on a client's bytes runs on a pool of worker
// threads (document-work-pool.ts), never on the event loop. These tests use
// the built worker (dist/) behind a gate they hold (helpers/gated-document-
// worker.mjs): a document named `held…` keeps its thread busy until the test
// opens the gate, so "while a conversion is in flight" is a fact the test
// arranges, not a race against a clock.

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
});

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

describe('document pool', () => {
  it('answers health and another user’s envelope while a document converts, then converts it', async () => {
    const { work, gate } = builtDocumentWork({ threads: 2 });
    const sandbox = await injectedSandbox({}, { documentWork: work });
    sandboxes.push(sandbox);

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

  it('answers health while a hostile document (5 MB one word) is refused on a thread', async () => {
    const { work } = builtDocumentWork();
    const sandbox = await injectedSandbox({}, { documentWork: work });
    sandboxes.push(sandbox);
    const hostile = pending(
      call(envelopesUrl(sandbox), {
        headers: authHeader(),
        body: textEnvelope('word.txt', Buffer.alloc(5 << 20, 'x')),
      }),
    );
    // Health is asked until an answer says the conversion is under way: an answer given while a thread works
    // on the document. On the event loop (before issue 36) no answer could come before the refusal.
    let seenRunning = false;
    while (!hostile.settled && !seenRunning) seenRunning = (await health(sandbox)).running > 0;
    expect(seenRunning).toBe(true);
    const refused = await hostile.promise;
    expect(refused.status).toBe(400);
    expect(refused.json.errorCode).toBe('FORMAT_CONVERSION_ERROR');
  });

  it('refuses a document past its deadline with FORMAT_CONVERSION_ERROR and replaces the thread', async () => {
    const { work, gate } = builtDocumentWork({ threads: 1, deadlineMs: 5000 });
    const sandbox = await injectedSandbox({}, { documentWork: work });
    sandboxes.push(sandbox);
    // Held and never let go: only the deadline ends it.
    const held = await call(envelopesUrl(sandbox), {
      headers: authHeader(),
      body: textEnvelope('held.txt', 'Signed: /sn1/'),
    });
    expect(held.status).toBe(400);
    expect(held.json.errorCode).toBe('FORMAT_CONVERSION_ERROR');
    expect(await health(sandbox)).toMatchObject({ timedOut: 1, running: 0 });
    // The one thread was ended; a new one converts the next document.
    const next = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(next.status).toBe(201);
    gate.open();
  });

  it('refuses a document past the memory limit with FORMAT_CONVERSION_ERROR and replaces the thread', async () => {
    const { work } = builtDocumentWork({ threads: 1, memoryMb: 64 });
    const sandbox = await injectedSandbox({}, { documentWork: work });
    sandboxes.push(sandbox);
    const grown = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('grow.txt', 'x') });
    expect(grown.status).toBe(400);
    expect(grown.json.errorCode).toBe('FORMAT_CONVERSION_ERROR');
    expect(await health(sandbox)).toMatchObject({ outOfMemory: 1, running: 0 });
    const next = await call(envelopesUrl(sandbox), { headers: authHeader(), body: textEnvelope('b.txt', 'Hello') });
    expect(next.status).toBe(201);
  });
});
