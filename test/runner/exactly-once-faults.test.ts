import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { defaultRetryPolicy } from '../../src/client/retry-policy.js';
import type { Auth } from '../../src/client/auth.js';
import { envelopeFixture } from './fixtures.js';

/**
 * The hardest fault: the service commits the envelope, then the connection
 * breaks before the client hears 201 (`reset-after`). A blind retry would
 * send the contract twice; the runner must look it up and adopt it.
 */
let sandbox: RunningSandbox;
const auth: Auth = sandboxSeedAuth();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, faults: 'reset-after=0.25', faultSeed: 11 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('exactly once under reset-after faults', () => {
  it('no identity is created twice, and every succeeded envelope exists on the service', async () => {
    const envelopes = Array.from({ length: 24 }, (_, i) =>
      envelopeFixture(`faulty-${i}`, { documents: [envelopeFixture('x').documents[0]!] }),
    );
    const summary = await runCollected({
      jobs: [{ file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes, accounts: [] }],
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
      outDir: await mkdtemp(path.join(os.tmpdir(), 'signrun-faults-')),
      concurrency: 4,
      retryPolicy: { ...defaultRetryPolicy, backoffBaseMs: 5, backoffLimitMs: 20 },
    });
    expect(summary.api.retries).toBeGreaterThan(0);
    // Drafts committed but unanswered were repeated, the duplicates found by the listing and deleted.
    expect(summary.api.byOperation['listEnvelopes']).toBeGreaterThan(0);
    expect(summary.envelopes.some((e) => e.adopted === true)).toBe(true);

    // Count what the service holds, per identity custom field (a patient client: faults still apply).
    const checker = EsignatureClient.create({
      rootUrl: sandbox.rootUrl,
      auth,
      retryPolicy: { ...defaultRetryPolicy, limit: 12, backoffBaseMs: 5, backoffLimitMs: 20 },
    });
    const account = await checker.login();
    const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
    checker.close();
    const perIdentity = new Map<string, string[]>();
    // Drafts that lost to an earlier one of their identity are deleted: never sent, they do not count.
    for (const e of listed.envelopes ?? []) {
      if (e.status === 'deleted') continue;
      const id = e.customFields?.textCustomFields?.find((f) => f.name === 'signrun')?.value ?? '?';
      perIdentity.set(id, [...(perIdentity.get(id) ?? []), e.envelopeId]);
    }
    const duplicates = [...perIdentity].filter(([, ids]) => ids.length > 1);
    expect(duplicates).toEqual([]);
    for (const result of summary.envelopes) {
      expect(['succeeded', 'failed']).toContain(result.outcome);
      if (result.outcome === 'failed') expect(result.error?.code).toMatch(/^SR_/);
      if (result.envelopeId) expect(perIdentity.get(`runner-test/${result.key}`)).toEqual([result.envelopeId]);
    }
    expect(summary.envelopes.filter((e) => e.outcome === 'succeeded').length).toBeGreaterThan(12);
  });
});
