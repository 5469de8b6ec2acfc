import { mkdtemp, readFile } from 'node:fs/promises';
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
 * Every attempt of one create commits a draft and loses its answer
 * (`reset-after` on all four): the client's retries are spent and the call
 * fails, yet four drafts exist. The run must not fail the envelope and leave
 * them behind: the confirm's listing finds them, the earliest is sent, the
 * other three deleted. Deterministic: one envelope, one request at a time,
 * so the seeded draws meet the same requests every run.
 */
let sandbox: RunningSandbox;
const auth: Auth = sandboxSeedAuth();
/** Found by trying seeds: 3 puts a fault on each of the four create attempts (the test checks it did). */
const seed = 3;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, faults: 'reset-after=0.5', faultSeed: seed });
});
afterAll(async () => {
  await sandbox.close();
});

describe('a create whose every answer was lost', () => {
  it('sends the earliest of its drafts and deletes the others', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-lost-create-'));
    const summary = await runCollected({
      jobs: [
        {
          file: '/jobs/runner-test.yaml',
          job: 'runner-test',
          envelopes: [envelopeFixture('lost-answers', { documents: [envelopeFixture('x').documents[0]!] })],
          accounts: [],
        },
      ],
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
      outDir,
      stateDir: path.join(outDir, '.signrun'),
      concurrency: 1,
      retryPolicy: { ...defaultRetryPolicy, backoffBaseMs: 5, backoffLimitMs: 20 },
    });
    const checker = EsignatureClient.create({
      rootUrl: sandbox.rootUrl,
      auth,
      retryPolicy: { ...defaultRetryPolicy, limit: 12, backoffBaseMs: 5, backoffLimitMs: 20 },
    });
    const account = await checker.login();
    const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
    checker.close();
    const held = (listed.envelopes ?? []).filter(
      (e) => e.customFields?.textCustomFields?.find((f) => f.name === 'signrun')?.value === 'runner-test/lost-answers',
    );
    const journal = (await readFile(path.join(outDir, '.signrun', 'journal.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { step: string });
    const heard = journal.filter((r) => r.step === 'draft').length;
    // The scenario happened: four create attempts, each committed a draft, and no answer
    // reached the run (it journals a `draft` for each envelopeId it hears).
    expect(summary.api.byOperation['createEnvelope']).toBe(4);
    expect(held).toHaveLength(4);
    expect(heard).toBe(0);

    const [result] = summary.envelopes;
    expect(result?.error).toBeUndefined();
    expect(result?.outcome).toBe('succeeded');
    const earliest = [...held].sort((a, b) => (a.createdDateTime! < b.createdDateTime! ? -1 : 1))[0]!;
    expect(result?.envelopeId).toBe(earliest.envelopeId);
    expect(result?.status).toBe('sent');
    expect(held.filter((e) => e.status !== 'deleted').map((e) => [e.envelopeId, e.status])).toEqual([
      [earliest.envelopeId, 'sent'],
    ]);
  });
});
