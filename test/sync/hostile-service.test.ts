import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { runCollected } from '../helpers/collected-run.js';
import { sync, type SyncOptions, type SyncSummary } from '../../src/sync/sync.js';
import { readJournal } from '../../src/state/journal.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import type { EnvelopeResult } from '../../src/runner/run-summary.js';
import type { EnvelopeJson, SigningJson } from '../../src/output/records.js';
import type { SignrunError } from '../../src/errors/signrun-error.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy.js';
import { documentFixture, envelopeFixture, signerFixture } from '../runner/fixtures.js';

/**
 * Issue 25, "a service that does not stop": a loopback proxy in front of the
 * real sandbox answers listings whose every page is the first, that announce
 * a billion envelopes or page without end, HTML for documents, documents
 * that never end, and `sent` after `completed`. Listings are bounded and
 * cancellable, such downloads refused with nothing on disk, and a status
 * never goes backwards.
 */
let sandbox: RunningSandbox;
let proxy: HostileProxy;
let outDir: string;
let stateDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  proxy = await startHostileProxy(sandbox.origin);
  outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-hostile-'));
  stateDir = path.join(outDir, '.signrun');
  // Two envelopes of one signer each, sent through the proxy (passing), then signed.
  const sent = await runCollected({ jobs: jobs(), target: target(), outDir, stateDir });
  expect(sent.envelopes.map((e) => e.outcome)).toEqual(['succeeded', 'succeeded']);
  for (const key of ['a', 'b']) {
    const signing = JSON.parse(
      await readFile(path.join(outDir, 'hostile', key, 'signing.json'), 'utf8'),
    ) as SigningJson;
    expect(await signOverHttp(signing.recipients[0]!.url!, 'Signer 1')).toBe('signing_complete');
  }
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

function jobs() {
  const envelopes = ['a', 'b'].map((key) =>
    envelopeFixture(key, {
      job: 'hostile',
      recipients: [
        signerFixture('1', {
          tabs: [
            {
              kind: 'signHere',
              place: { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' },
              written: ['tabs', 0],
            },
          ],
        }),
      ],
      documents: [documentFixture('1', 'offer-letter.pdf')],
    }),
  );
  return [{ file: '/jobs/hostile.yaml', job: 'hostile', envelopes, accounts: [] }];
}
const target = () => ({ rootUrl: proxy.rootUrl, sandbox: false, auth: sandboxSeedAuth() });

async function syncOnce(
  extra: Partial<SyncOptions> = {},
): Promise<{ summary: SyncSummary; envelopes: EnvelopeResult[]; events: RunEvent[] }> {
  const events: RunEvent[] = [];
  proxy.listings = 0;
  const summary = await sync({
    jobs: jobs(),
    target: target(),
    outDir,
    stateDir,
    force: true,
    onEvent: (e) => {
      events.push(e);
      (extra.onEvent ?? (() => undefined))(e);
    },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'onEvent')),
  });
  const envelopes: EnvelopeResult[] = [];
  for await (const e of summary.envelopes()) envelopes.push(e);
  await summary.close();
  return { summary, envelopes, events };
}

async function listedRecords(): Promise<number> {
  return (await readJournal(stateDir)).records.filter((r) => r.kind === 'listing').length;
}

async function leftInDocuments(key: string): Promise<string[]> {
  const names = await readdir(path.join(outDir, 'hostile', key, 'documents')).catch(() => [] as string[]);
  const top = await readdir(path.join(outDir, 'hostile', key));
  return [...names, ...top.filter((n) => n.endsWith('.tmp') || n === 'certificate.pdf')];
}

// The cases run in order: they share the envelopes, signed once.
describe.sequential('a service that does not stop', () => {
  it('a document that is an HTML page is refused (SR_DOWNLOAD_NOT_DOCUMENT), nothing is written', async () => {
    proxy.mode = 'html-documents';
    const { envelopes } = await syncOnce();
    expect(envelopes.map((e) => [e.outcome, e.status, e.error?.code])).toEqual([
      ['failed', 'completed', 'SR_DOWNLOAD_NOT_DOCUMENT'],
      ['failed', 'completed', 'SR_DOWNLOAD_NOT_DOCUMENT'],
    ]);
    expect(await leftInDocuments('a')).toEqual([]);
    const journal = (await readJournal(stateDir)).records;
    expect(journal.some((r) => r.kind === 'envelope' && r.step === 'collected')).toBe(false);
  });

  it('a document that never ends is cut at its cap (SR_DOWNLOAD_TOO_LARGE), nothing is written', async () => {
    proxy.mode = 'endless-documents';
    proxy.endlessBytes = 0;
    const { envelopes } = await syncOnce();
    expect(envelopes.map((e) => e.error?.code)).toEqual(['SR_DOWNLOAD_TOO_LARGE', 'SR_DOWNLOAD_TOO_LARGE']);
    expect(await leftInDocuments('a')).toEqual([]);
    // The cap follows the size the listing announced (a few times it, plus 1 MiB), far below the proxy's 64 MiB.
    expect(proxy.endlessBytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('a service answering again: the signed documents are collected', async () => {
    proxy.mode = 'pass';
    const { envelopes } = await syncOnce();
    expect(envelopes.map((e) => [e.outcome, e.status])).toEqual([
      ['succeeded', 'completed'],
      ['succeeded', 'completed'],
    ]);
    expect((await leftInDocuments('a')).filter((n) => n.endsWith('.pdf')).length).toBe(2);
  });

  it('a collected document removed since: the next sync collects it again', async () => {
    const folder = path.join(outDir, 'hostile', 'a', 'documents');
    const [document] = (await readdir(folder)).filter((n) => n.endsWith('.pdf'));
    await rm(path.join(folder, document!));
    const { summary, events } = await syncOnce();
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { kind: string }).kind)).toEqual([
      'outputs-missing',
    ]);
    // Envelope a's document, certificate and form data; nothing of b.
    expect(summary.sync.downloads).toBe(3);
    expect(await readdir(folder)).toContain(document);
  });

  it('after completed, a listing that says sent is reported, not applied: envelope.json does not go back', async () => {
    proxy.mode = 'sent-after-completed';
    const { envelopes, events } = await syncOnce();
    expect(envelopes.map((e) => e.status)).toEqual(['completed', 'completed']);
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { kind: string }).kind)).toEqual([
      'status-regression',
      'status-regression',
    ]);
    const record = JSON.parse(
      await readFile(path.join(outDir, 'hostile', 'a', 'envelope.json'), 'utf8'),
    ) as EnvelopeJson;
    expect(record.status).toBe('completed');
    const statuses = (await readJournal(stateDir)).records.filter(
      (r) => r.kind === 'envelope' && r.step === 'status' && r.id === 'hostile/a',
    );
    expect(statuses.map((r) => (r as { facts: { status: string } }).facts.status).pop()).toBe('completed');
  });

  it('a listing whose every page is the first stops at the second page (SR_LISTING_UNBOUNDED), nothing recorded', async () => {
    proxy.mode = 'repeat-first-page';
    const before = await listedRecords();
    const error = (await syncOnce().catch((e: unknown) => e)) as SignrunError;
    expect(error.code).toBe('SR_LISTING_UNBOUNDED');
    expect(error.details?.['reason']).toBe('repeated-page');
    expect(proxy.listings).toBe(2);
    expect(await listedRecords()).toBe(before);
  });

  it('a listing that announces a billion envelopes stops at the first page', async () => {
    proxy.mode = 'billion';
    const error = (await syncOnce().catch((e: unknown) => e)) as SignrunError;
    expect(error.code).toBe('SR_LISTING_UNBOUNDED');
    expect(error.details?.['reason']).toBe('total-size');
    expect(proxy.listings).toBe(1);
  });

  it('SIGTERM stops a listing without end between pages: the sync ends interrupted, nothing of it recorded', async () => {
    proxy.mode = 'endless-pages';
    const before = await listedRecords();
    const controller = new AbortController();
    const { summary } = await syncOnce({
      signal: controller.signal,
      // The CLI aborts on SIGTERM (src/cli/main.ts); here after the third page.
      onEvent: (e) => {
        if (e.type === 'request' && e.operation === 'listEnvelopes' && proxy.listings >= 3) controller.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    expect(proxy.listings).toBe(3);
    expect(await listedRecords()).toBe(before);
  });

  it("the run's listing of the job whose every page is the first: refused before anything is sent", async () => {
    proxy.mode = 'repeat-first-page';
    proxy.listings = 0;
    const error = (await runCollected({
      jobs: jobs(),
      target: target(),
      outDir: path.join(outDir, 'again'),
      stateDir: path.join(outDir, 'again', '.signrun'),
    }).catch((e: unknown) => e)) as SignrunError;
    expect(error.code).toBe('SR_LISTING_UNBOUNDED');
    expect(proxy.listings).toBe(2);
  });
});
