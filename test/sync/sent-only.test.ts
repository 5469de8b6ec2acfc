import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { sync } from '../../src/sync/sync.js';
import { collected, runCollected } from '../helpers/collected-run.js';
import { envelopeFixture } from '../runner/fixtures.js';

// `run`'s own sync (sentOnly): results only for envelopes sent before. The
// ones never sent cost no call either way; at 100,000 new rows their
// results were the run's peak memory (issue 37, BENCHMARKS.md s49-memory).

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('sync, sentOnly', () => {
  it('gives a result for the envelope sent before and none for the one never sent; without it, both', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-sync-sent-only-'));
    const stateDir = path.join(outDir, '.signrun');
    const target = { rootUrl: sandbox.rootUrl, sandbox: false, auth: sandboxSeedAuth() };
    const job = (keys: string[]) => [
      {
        file: '/jobs/runner-test.yaml',
        job: 'runner-test',
        envelopes: keys.map((k) => envelopeFixture(k)),
        accounts: [],
      },
    ];
    const sent = await runCollected({ jobs: job(['sent']), target, outDir, stateDir });
    expect(sent.envelopes.map((e) => e.outcome)).toEqual(['succeeded']);

    const onlySummary = await sync({ jobs: job(['sent', 'never-sent']), target, outDir, stateDir, sentOnly: true });
    expect(onlySummary.sync.listed).toBe(true);
    const only = await collected(onlySummary);
    expect(only.envelopes.map((e) => [e.key, e.status])).toEqual([['sent', 'sent']]);

    const all = await collected(
      await sync({ jobs: job(['sent', 'never-sent']), target, outDir, stateDir, force: true }),
    );
    expect(all.envelopes.map((e) => [e.key, e.outcome])).toEqual([
      ['sent', only.envelopes[0]?.outcome],
      ['never-sent', 'not-started'],
    ]);
  });
});
