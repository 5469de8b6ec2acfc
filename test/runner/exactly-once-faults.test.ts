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
 * send the contract twice; the runner must look it up and adopt it. When
 * every attempt of a call is spent (1 in 256 at 25%), the envelope fails:
 * drafts may then remain (never sent), and the next run cleans them up
 * (docs/exactly-once.md, "Drafts a failed envelope leaves").
 */
let sandbox: RunningSandbox;
const auth: Auth = sandboxSeedAuth();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, faults: 'reset-after=0.25', faultSeed: 11 });
});
afterAll(async () => {
  await sandbox.close();
});

/** What the service holds of each identity (a patient client: faults still apply), deleted drafts left out. */
async function heldPerIdentity(): Promise<Map<string, Array<{ envelopeId: string; status: string }>>> {
  const checker = EsignatureClient.create({
    rootUrl: sandbox.rootUrl,
    auth,
    retryPolicy: { ...defaultRetryPolicy, limit: 12, backoffBaseMs: 5, backoffLimitMs: 20 },
  });
  const account = await checker.login();
  const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
  checker.close();
  const perIdentity = new Map<string, Array<{ envelopeId: string; status: string }>>();
  for (const e of listed.envelopes ?? []) {
    // Drafts that lost to an earlier one of their identity are deleted: never sent, they do not count.
    if (e.status === 'deleted') continue;
    const id = e.customFields?.textCustomFields?.find((f) => f.name === 'signrun')?.value ?? '?';
    perIdentity.set(id, [...(perIdentity.get(id) ?? []), { envelopeId: e.envelopeId, status: e.status ?? '?' }]);
  }
  return perIdentity;
}

describe('exactly once under reset-after faults', () => {
  it('no identity is sent twice, a failed envelope leaves only drafts, and the next run leaves one envelope per identity', async () => {
    const envelopes = Array.from({ length: 24 }, (_, i) =>
      envelopeFixture(`faulty-${i}`, { documents: [envelopeFixture('x').documents[0]!] }),
    );
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-faults-'));
    const runOnce = () =>
      runCollected({
        jobs: [{ file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes, accounts: [] }],
        target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
        outDir,
        stateDir: path.join(outDir, '.signrun'),
        concurrency: 4,
        retryPolicy: { ...defaultRetryPolicy, backoffBaseMs: 5, backoffLimitMs: 20 },
      });
    const summary = await runOnce();
    expect(summary.api.retries).toBeGreaterThan(0);
    // Drafts committed but unanswered were repeated, the duplicates found by the listing and deleted.
    expect(summary.api.byOperation['listEnvelopes']).toBeGreaterThan(0);
    expect(summary.envelopes.some((e) => e.adopted === true)).toBe(true);
    expect(summary.envelopes.filter((e) => e.outcome === 'succeeded').length).toBeGreaterThan(12);

    const held = await heldPerIdentity();
    // Never sent twice: at most one envelope of an identity is anything but a draft.
    const sentTwice = [...held].filter(([, es]) => es.filter((e) => e.status !== 'created').length > 1);
    expect(sentTwice).toEqual([]);
    for (const result of summary.envelopes) {
      expect(['succeeded', 'failed']).toContain(result.outcome);
      const mine = held.get(`runner-test/${result.key}`) ?? [];
      if (result.outcome === 'succeeded') {
        // A succeeded envelope's losing drafts are deleted: it is the identity's one envelope.
        expect(mine.map((e) => e.envelopeId)).toEqual([result.envelopeId]);
        continue;
      }
      expect(result.error?.code).toMatch(/^SR_/);
      // A create that failed after the service may have acted is confirmed by the listing: an
      // envelope failed at 'draft' is one the service holds nothing of.
      if (result.error?.step === 'draft') expect(mine).toEqual([]);
      // A failed envelope (every attempt of a listing, deletion, send or view spent) may leave
      // drafts beside the one that counts (never sent: checked above); the next run cleans them up.
    }

    // Run again (same state folder) until every envelope succeeded, as the report tells a user
    // to: each identity then has exactly one envelope on the service, the one the report names.
    let last = summary;
    for (let run = 0; run < 5 && last.envelopes.some((e) => e.outcome === 'failed'); run++) last = await runOnce();
    expect(last.envelopes.filter((e) => e.outcome === 'failed').map((e) => [e.key, e.error])).toEqual([]);
    const after = await heldPerIdentity();
    expect([...after].filter(([, es]) => es.length > 1)).toEqual([]);
    for (const result of last.envelopes)
      expect(after.get(`runner-test/${result.key}`)?.map((e) => e.envelopeId)).toEqual([result.envelopeId]);
  });
});
