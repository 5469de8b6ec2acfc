import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { exitCodeOf } from '../../src/runner/run-summary.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import type { Auth } from '../../src/client/auth.js';
import { envelopeFixture } from './fixtures.js';

const auth: Auth = sandboxSeedAuth();
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function envelopesOnService(): Promise<number> {
  const client = EsignatureClient.create({ rootUrl: sandbox?.rootUrl ?? '', auth });
  try {
    const account = await client.login();
    return (await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' })).envelopes?.length ?? 0;
  } finally {
    client.close();
  }
}

const job = (n: number) => ({
  file: '/jobs/runner-test.yaml',
  job: 'runner-test',
  envelopes: Array.from({ length: n }, (_, i) => envelopeFixture(`rl-${i}`)),
  accounts: [],
});

describe('rate limits seen by a run', () => {
  it('the report shows the calls made and what the service says remains', async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, hourlyLimit: 500 });
    const summary = await runCollected({
      jobs: [job(2)],
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
      outDir: await mkdtemp(path.join(os.tmpdir(), 'signrun-rl-')),
    });
    // login, the job's listing, per envelope draft + send + 2 views, and one or two listings confirming the drafts
    expect(summary.api.calls).toBeGreaterThanOrEqual(1 + 1 + 2 * 4 + 1);
    expect(summary.api.calls).toBeLessThanOrEqual(1 + 1 + 2 * 4 + 2);
    expect(summary.api.rateLimit?.limit).toBe(500);
    expect(summary.api.rateLimit?.remaining).toBe(500 - summary.api.calls);
  });

  it("the service's hourly limit is the default budget: the run stops starting work before the service refuses, fails nothing, and says when to resume", async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, hourlyLimit: 30 });
    // 10 envelopes at 4 calls each (and the run's listings) do not fit in 30.
    const summary = await runCollected({
      jobs: [job(10)],
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
      outDir: await mkdtemp(path.join(os.tmpdir(), 'signrun-rl-')),
      concurrency: 2,
    });
    const outcomes = summary.envelopes.map((e) => e.outcome);
    expect(outcomes.filter((o) => o === 'failed')).toEqual([]);
    expect(outcomes.filter((o) => o === 'succeeded').length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === 'not-started').length).toBeGreaterThan(0);
    expect(summary.api.failedCalls).toBe(0);
    expect(summary.api.calls).toBeLessThanOrEqual(30);
    expect(summary.callBudget).toMatchObject({
      exhausted: true,
      code: 'SR_CALL_BUDGET_SPENT',
      used: summary.api.calls,
    });
    // The service said when its window resets: that is when to resume.
    expect(summary.callBudget?.resumeAt).toBe(summary.api.rateLimit?.resetAt);
    expect(Date.parse(summary.callBudget?.resumeAt ?? '')).toBeGreaterThan(Date.now());
    expect(exitCodeOf(summary)).toBe(1);
  });

  it('--max-calls-per-hour: stops starting work within the budget, finishes what is in flight; a later run resumes and each envelope exists once', async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-rl-'));
    const stateDir = path.join(outDir, '.signrun');
    const target = { rootUrl: sandbox.rootUrl, sandbox: false, auth };
    const before = Date.now();
    const first = await runCollected({ jobs: [job(8)], target, outDir, stateDir, concurrency: 2, maxCallsPerHour: 35 });
    expect(first.api.calls).toBeLessThanOrEqual(35);
    expect(first.envelopes.filter((e) => e.outcome === 'failed')).toEqual([]);
    const sent = first.envelopes.filter((e) => e.outcome === 'succeeded').length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(8);
    expect(first.callBudget).toMatchObject({ maxCallsPerHour: 35, exhausted: true, code: 'SR_CALL_BUDGET_SPENT' });
    // The budget is this run's own hour: resume an hour after it started.
    const resumeAt = Date.parse(first.callBudget?.resumeAt ?? '');
    expect(resumeAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(resumeAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(exitCodeOf(first)).toBe(1);

    const second = await runCollected({
      jobs: [job(8)],
      target,
      outDir,
      stateDir,
      concurrency: 2,
      maxCallsPerHour: 1_000,
    });
    expect(second.envelopes.map((e) => e.outcome)).toEqual(Array(8).fill('succeeded'));
    expect(second.callBudget).toMatchObject({ exhausted: false, used: second.api.calls });
    expect(exitCodeOf(second)).toBe(0);
    // Only the envelopes the first run did not start are created; the service holds each once.
    expect(second.api.byOperation['createEnvelope']).toBe(8 - sent);
    expect(await envelopesOnService()).toBe(8);
  });
});
