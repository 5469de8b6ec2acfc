import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { run } from '../../src/runner/run.js';
import { sandboxSeedCredentials } from '../../src/runner/target.js';
import { defaultRetryPolicy } from '../../src/client/retry-policy.js';
import type { Auth } from '../../src/client/auth.js';
import { makeSecret } from '../../src/secret.js';
import { envelopeFixture } from './fixtures.js';

const s = sandboxSeedCredentials;
const auth: Auth = { kind: 'legacy', username: s.username, password: makeSecret(s.password), integratorKey: s.integratorKey };
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const job = (n: number) => ({ file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes: Array.from({ length: n }, (_, i) => envelopeFixture(`rl-${i}`)), accounts: [] });

describe('rate limits seen by a run', () => {
  it('the report shows the calls made and what the service says remains', async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, hourlyLimit: 500 });
    const summary = await run({ jobs: [job(2)], target: { rootUrl: sandbox.rootUrl, sandbox: false, auth }, outDir: await mkdtemp(path.join(os.tmpdir(), 'signrun-rl-')) });
    expect(summary.api.calls).toBe(1 + 2 * 8);
    expect(summary.api.rateLimit?.limit).toBe(500);
    expect(summary.api.rateLimit?.remaining).toBe(500 - summary.api.calls);
  });

  it('when the hourly limit runs out, envelopes fail with SR_RATE_LIMITED and say so; a refusal is not repeated in vain', async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, hourlyLimit: 12 });
    const summary = await run({
      jobs: [job(3)],
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
      outDir: await mkdtemp(path.join(os.tmpdir(), 'signrun-rl-')),
      concurrency: 1,
      // The window resets in up to an hour: far beyond what a retry may wait.
      retryPolicy: { ...defaultRetryPolicy, maxRetryAfterMs: 1_000 },
    });
    const failed = summary.envelopes.filter((e) => e.outcome === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((e) => e.error?.code === 'SR_RATE_LIMITED')).toBe(true);
    // Each envelope asked once: a refusal is not repeated once the client's retries gave up.
    expect(summary.api.byOperation['createEnvelope']).toBeLessThanOrEqual(3);
  });
});
