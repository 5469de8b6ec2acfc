import { createHash } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { PreflightError } from '../../src/runner/run.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth, sandboxSeedCredentials } from '../../src/runner/target.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import type { Auth } from '../../src/client/auth.js';
import { makeSecret } from '../../src/secret.js';
import type { ResolvedJob } from '../../src/jobs/model.js';
import type { AccountRecord, SigningRecord } from '../../src/output/records.js';
import { accountFixture, envelopeFixture, signerFixture } from './fixtures.js';

/** The runner as a library against the real sandbox over HTTP on loopback. */
let sandbox: RunningSandbox;
const s = sandboxSeedCredentials;
const auth: Auth = sandboxSeedAuth();
const distributor = { code: s.distributorCode, password: makeSecret(s.distributorPassword) };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

function job(envelopes = [envelopeFixture('a')], accounts: ReturnType<typeof accountFixture>[] = []): ResolvedJob {
  return { file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes, accounts };
}

async function tempOut() {
  return mkdtemp(path.join(os.tmpdir(), 'signrun-run-'));
}

async function envelopesOnService(): Promise<number> {
  const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth });
  try {
    const account = await client.login();
    const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
    // Deleted drafts (lost a race) were never sent: they do not count.
    return (listed.envelopes ?? []).filter((e) => e.status !== 'deleted').length;
  } finally {
    client.close();
  }
}

const target = () => ({ rootUrl: sandbox.rootUrl, sandbox: false, auth });

describe('run (library) against the sandbox', () => {
  it('runs the 4.12 sequence: ids, views, documents and certificate whose sha256 match the service bytes', async () => {
    const outDir = await tempOut();
    const events: RunEvent[] = [];
    const summary = await runCollected({
      jobs: [job()],
      target: target(),
      outDir,
      documents: 'at-send',
      onEvent: (e) => events.push(e),
    });
    const [result] = summary.envelopes;
    expect(result?.outcome).toBe('succeeded');
    expect(result?.lastStep).toBe('certificate');
    expect(result?.recipients.map((r) => r.signing)).toEqual(['ready', 'ready']);
    // draft, send, 2 views, 2 documents, certificate (the listings that confirm drafts are the run's, shared)
    expect(result?.apiCalls).toBe(7);
    expect(events.filter((e) => e.type === 'envelope:step').map((e) => (e as { step: string }).step)).toEqual([
      'draft',
      'confirm',
      'send',
      'views',
      'documents',
      'certificate',
    ]);
    const files = result?.files ?? [];
    expect(files.map((f) => f.path).sort()).toEqual(
      [
        'certificate.pdf',
        'documents/1-offer-letter.pdf',
        'documents/2-company-handbook.pdf',
        'envelope.json',
        'signing.json',
      ]
        .map((f) => `runner-test/a/${f}`)
        .sort(),
    );
    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth });
    const account = await client.login();
    for (const file of files) {
      const bytes = await readFile(path.join(outDir, file.path));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.sha256);
      expect(bytes.length).toBe(file.size);
      const documentId =
        /documents\/(\d+)-/.exec(file.path)?.[1] ?? (file.path.endsWith('certificate.pdf') ? 'certificate' : undefined);
      if (documentId && documentId !== 'certificate') {
        const served = await account.client.request({
          method: 'GET',
          url: `${account.baseUrl}/envelopes/${result?.envelopeId}/documents/${documentId}`,
          operation: 't',
          responseType: 'stream',
        });
        const chunks: Buffer[] = [];
        for await (const chunk of served.stream ?? []) chunks.push(chunk as Buffer);
        expect(createHash('sha256').update(Buffer.concat(chunks)).digest('hex')).toBe(file.sha256);
      }
    }
    client.close();
    expect((await stat(path.join(outDir, 'runner-test/a/signing.json'))).mode & 0o777).toBe(0o600);
  });

  it('reports a recipient whose routing order has not come as waiting for its turn, not as a failure', async () => {
    const outDir = await tempOut();
    const envelope = envelopeFixture('routed', {
      recipients: [signerFixture('1', { routingOrder: '1' }), signerFixture('2', { routingOrder: '2' })],
    });
    const summary = await runCollected({ jobs: [job([envelope])], target: target(), outDir });
    const [result] = summary.envelopes;
    expect(result?.outcome).toBe('succeeded');
    expect(result?.recipients.map((r) => r.signing)).toEqual(['ready', 'waiting-for-turn']);
    const signing = JSON.parse(
      await readFile(path.join(outDir, 'runner-test/routed/signing.json'), 'utf8'),
    ) as SigningRecord;
    expect(signing.recipients.map((r) => [r.clientUserId, r.state, Boolean(r.url)])).toEqual([
      ['c-1', 'ready', true],
      ['c-2', 'waiting-for-turn', false],
    ]);
  });

  it('refuses a template roleName the template lacks before sending anything (plan-time error)', async () => {
    const before = await envelopesOnService();
    const good = envelopeFixture('fine');
    const bad = envelopeFixture('tpl', {
      kind: 'template',
      documents: [],
      recipients: [],
      templateId: '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
      templateRoles: [
        {
          kind: 'signer',
          roleName: 'employe',
          name: 'X',
          email: 'x@example.com',
          clientUserId: 'x',
          tabs: [],
          written: ['templateRoles', 0],
        },
      ],
    });
    const error = (await runCollected({ jobs: [job([good, bad])], target: target(), outDir: await tempOut() }).catch(
      (e: unknown) => e,
    )) as PreflightError;
    expect(error).toBeInstanceOf(PreflightError);
    expect(error.problems.map((p) => p.code)).toEqual(['SR_TEMPLATE_ROLE_MISSING']);
    expect(error.exitCode).toBe(2);
    expect(await envelopesOnService()).toBe(before);
  });

  it('a second run into the same outputs adopts the envelope instead of sending it again; changed content is drift', async () => {
    const outDir = await tempOut();
    const envelope = envelopeFixture('once');
    const first = await runCollected({ jobs: [job([envelope])], target: target(), outDir });
    const count = await envelopesOnService();
    const second = await runCollected({ jobs: [job([envelope])], target: target(), outDir });
    expect(second.envelopes[0]).toMatchObject({
      outcome: 'succeeded',
      adopted: true,
      envelopeId: first.envelopes[0]?.envelopeId,
    });
    expect(second.api.byOperation['createEnvelope']).toBeUndefined();
    expect(await envelopesOnService()).toBe(count);
    const changed = envelopeFixture('once', { emailSubject: 'Changed subject' });
    const third = await runCollected({ jobs: [job([changed])], target: target(), outDir });
    expect(third.envelopes[0]?.error?.code).toBe('SR_ENVELOPE_DRIFT');
    expect(await envelopesOnService()).toBe(count);
  });

  it('a re-run decides from the journal: finished steps are skipped; an output it promises that the disk lacks is made again (issue 25)', async () => {
    const outDir = await tempOut();
    const stateDir = path.join(outDir, '.signrun');
    const envelope = envelopeFixture('resume');
    const first = await runCollected({
      jobs: [job([envelope])],
      target: target(),
      outDir,
      stateDir,
      documents: 'at-send',
    });
    const firstFiles = first.envelopes[0]?.files ?? [];
    const unchanged = await runCollected({
      jobs: [job([envelope])],
      target: target(),
      outDir,
      stateDir,
      documents: 'at-send',
    });
    expect(unchanged.envelopes[0]).toMatchObject({ outcome: 'succeeded', apiCalls: 0 });
    // An output the journal promises and the disk holds cut short (another size) is downloaded again, alone.
    const handbook = firstFiles.find((f) => f.path.includes('company-handbook'));
    await writeFile(path.join(outDir, handbook?.path ?? ''), 'damaged');
    const again = await runCollected({
      jobs: [job([envelope])],
      target: target(),
      outDir,
      stateDir,
      documents: 'at-send',
    });
    expect(again.envelopes[0]).toMatchObject({ outcome: 'succeeded', apiCalls: 1 });
    expect(again.api.byOperation['downloadDocument']).toBe(1);
    expect(again.envelopes[0]?.files.filter((f) => f.path.endsWith('.pdf'))).toEqual(
      firstFiles.filter((f) => f.path.endsWith('.pdf')),
    );
    expect(again.api.byOperation['createEnvelope']).toBeUndefined();
  });

  it('creates an account (awaiting activation), then deletes it logging in as its own user', async () => {
    const outDir = await tempOut();
    const stateDir = path.join(outDir, '.signrun');
    const present = accountFixture('sub1');
    const created = await runCollected({
      jobs: [job([], [present])],
      target: target(),
      outDir,
      stateDir,
      distributor,
      integratorKey: s.integratorKey,
    });
    expect(created.accounts[0], JSON.stringify(created.accounts[0]?.error)).toMatchObject({
      outcome: 'created',
      awaitingActivation: true,
    });
    const record = JSON.parse(
      await readFile(path.join(outDir, 'runner-test/sub1/account.json'), 'utf8'),
    ) as AccountRecord;
    expect(record.accountId).toBe(created.accounts[0]?.accountId);
    expect(JSON.stringify(record)).not.toContain('pw-sub1-secret');

    // The initial user activates it from the activation message (DESIGN.md: /sandbox/outbox).
    const outbox = (await (await fetch(`${sandbox.origin}/sandbox/outbox?to=sub1@sub.example.com`)).json()) as {
      messages: Array<{ links: string[] }>;
    };
    const link = outbox.messages[0]?.links.find((l) => l.includes('/activate/'));
    expect(link).toBeDefined();
    expect((await fetch(link ?? '')).ok).toBe(true);

    const again = await runCollected({
      jobs: [job([], [present])],
      target: target(),
      outDir,
      stateDir,
      distributor,
      integratorKey: s.integratorKey,
    });
    expect(again.accounts[0]?.outcome).toBe('up-to-date');
    // Activated (its distributor reads it so; it keeps no contents to log in for): account.json says so now.
    expect(record.state).toBe('awaiting-activation');
    const activated = JSON.parse(
      await readFile(path.join(outDir, 'runner-test/sub1/account.json'), 'utf8'),
    ) as AccountRecord;
    expect(activated).toEqual({ ...record, state: 'present' });

    const absent = accountFixture('sub1', { state: 'absent' });
    const deleted = await runCollected({
      jobs: [job([], [absent])],
      target: target(),
      outDir,
      stateDir,
      distributor,
      integratorKey: s.integratorKey,
    });
    expect(deleted.accounts[0]?.outcome).toBe('deleted');
    expect(deleted.api.byOperation['deleteAccount']).toBe(1);
    const after = JSON.parse(
      await readFile(path.join(outDir, 'runner-test/sub1/account.json'), 'utf8'),
    ) as AccountRecord;
    expect(after.state).toBe('deleted');
  });

  it('an aborted signal starts nothing new, finishes work in flight and lists the rest as not started', async () => {
    const controller = new AbortController();
    // More than the last stretch's (the last 8 start at once): those before it start one as another ends.
    const envelopes = Array.from({ length: 30 }, (_, i) => envelopeFixture(`stop-${i}`));
    const summary = await runCollected({
      jobs: [job(envelopes)],
      target: target(),
      outDir: await tempOut(),
      concurrency: 2,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'envelope:done') controller.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    const outcomes = summary.envelopes.map((e) => e.outcome);
    expect(outcomes.filter((o) => o === 'succeeded').length).toBeGreaterThanOrEqual(1);
    // Concurrency 2 is two requests in flight; an envelope waiting for its draft's confirmation holds none, so up to 8 are in progress.
    expect(outcomes.filter((o) => o === 'succeeded').length).toBeLessThanOrEqual(9);
    expect(outcomes.filter((o) => o === 'not-started').length).toBeGreaterThanOrEqual(3);
    expect(outcomes).not.toContain('failed');
    expect(summary.envelopes).toHaveLength(30);
  });

  it('on demand keeps eight envelopes in progress per connection, at send four, and twice that for the last stretch', async () => {
    // Most envelopes in progress at once, from the run's own start and done events: before the
    // last stretch (its first envelope is the 20 − bound th), and in all.
    const mostInProgress = async (signingUrls: 'at-send' | 'on-demand') => {
      let now = 0;
      let most = 0;
      let mostBefore = 0;
      let started = 0;
      const bound = signingUrls === 'on-demand' ? 8 : 4;
      const summary = await runCollected({
        jobs: [job(Array.from({ length: 20 }, (_, i) => envelopeFixture(`${signingUrls}-${i}`)))],
        target: target(),
        outDir: await tempOut(),
        concurrency: 1,
        signingUrls,
        onEvent: (e) => {
          if (e.type === 'envelope:start') {
            most = Math.max(most, ++now);
            if ((started += 1) <= 20 - bound) mostBefore = Math.max(mostBefore, now);
          } else if (e.type === 'envelope:done') now -= 1;
        },
      });
      expect(summary.totals.envelopes.succeeded).toBe(20);
      return [mostBefore, most];
    };
    // On demand an envelope holds the connection for two calls of three round trips and its listing's wait.
    const [onDemand, onDemandAll] = await mostInProgress('on-demand');
    expect(onDemand).toBe(8);
    expect(onDemandAll).toBeGreaterThan(8);
    expect(onDemandAll).toBeLessThanOrEqual(16);
    const [atSend, atSendAll] = await mostInProgress('at-send');
    expect(atSend).toBe(4);
    expect(atSendAll).toBeGreaterThan(4);
    expect(atSendAll).toBeLessThanOrEqual(8);
  });

  it('with releaseEnvelopes the run takes the envelopes over and still reports every one, in job-file order', async () => {
    const controller = new AbortController();
    // More than the last stretch's four (they start at once): the abort comes before it.
    const keys = Array.from({ length: 16 }, (_, i) => `rel-${i}`);
    const given = job(keys.map((k) => envelopeFixture(k)));
    let done = 0;
    let planned: { items: Array<{ kind: string }> } = { items: [] };
    const summary = await runCollected({
      jobs: [given],
      target: target(),
      outDir: await tempOut(),
      // One request at a time: at most four envelopes in progress, so the abort leaves some not started.
      concurrency: 1,
      releaseEnvelopes: true,
      onPlan: (plan) => (planned = plan),
      signal: controller.signal,
      onEvent: (e) => {
        // Let a few finish (out of order: four in progress), then stop.
        if (e.type === 'envelope:done' && ++done === 4) controller.abort();
      },
    });
    expect(given.envelopes).toEqual([]);
    // The plan lives to the end of the run: it let its envelope items (each with its envelope) go too.
    expect(planned.items.filter((i) => i.kind === 'envelope')).toEqual([]);
    expect(summary.envelopes.map((e) => e.key)).toEqual(keys);
    const outcomes = summary.envelopes.map((e) => e.outcome);
    expect(outcomes).toContain('not-started');
    expect(outcomes.filter((o) => o === 'succeeded').length).toBeGreaterThanOrEqual(4);
    expect(outcomes.slice(outcomes.indexOf('not-started'))).toEqual(
      Array(outcomes.length - outcomes.indexOf('not-started')).fill('not-started'),
    );
    expect(summary.totals.envelopes).toMatchObject({ total: 16, failed: 0 });
    expect(summary.totals.envelopes.succeeded + summary.totals.envelopes.notStarted).toBe(16);
  });
});
