import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { envelopeFixture } from './fixtures.js';

/**
 * The run's last stretch (run-work-items.ts, request-priority.ts): once the
 * first of its last `inProgress` envelopes starts, nothing new comes after
 * them, so they all start at once and every request goes longest chain
 * first. At --concurrency 1 against a racing-safe target, 4 envelopes are
 * in progress; the last 4 of 10 are the stretch.
 */
let sandbox: RunningSandbox;
let checker: EsignatureClient;
const sandboxAccount = () => checker.login();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  checker = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
});
afterAll(async () => {
  checker.close();
  await sandbox.close();
});

describe("a run's last stretch", () => {
  it('starts the last envelopes together and sends each of them once', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-last-stretch-'));
    const events: RunEvent[] = [];
    try {
      const summary = await runCollected({
        jobs: [
          {
            file: '/jobs/runner-test.yaml',
            job: 'runner-test',
            envelopes: Array.from({ length: 10 }, (_, i) => envelopeFixture(`e${i}`)),
            accounts: [],
          },
        ],
        target: { rootUrl: sandbox.rootUrl, sandbox: false, auth: sandboxSeedAuth() },
        outDir,
        stateDir: path.join(outDir, '.signrun'),
        concurrency: 1,
        onEvent: (e) => events.push(e),
      });
      let inProgress = 0;
      let peak = 0;
      for (const e of events) {
        if (e.type === 'envelope:start') peak = Math.max(peak, (inProgress += 1));
        if (e.type === 'envelope:done') inProgress -= 1;
      }
      // Four at a time until e6, the first of the last four, started: then all four at once
      // beside the older ones still in progress (at most twice four).
      expect(peak).toBeGreaterThan(4);
      expect(peak).toBeLessThanOrEqual(8);
      expect(summary.envelopes.map((e) => e.outcome)).toEqual(Array(10).fill('succeeded'));
      // Each identity once on the service, sent.
      const account = await sandboxAccount();
      const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
      const identities = (listed.envelopes ?? []).map(
        (e) => `${e.status} ${e.customFields?.textCustomFields?.find((f) => f.name === 'signrun')?.value}`,
      );
      expect(identities.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `sent runner-test/e${i}`));
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
