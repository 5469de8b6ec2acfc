import { copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { loadJobs } from '../../src/jobs/index.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { runCollected } from '../helpers/collected-run.js';
import { repoRoot } from '../helpers/run-cli.js';
import { fanOutJob } from './run-helpers.js';

/**
 * A document swapped between validation and sending (issue 14, item 7): the
 * run validates, then the file is replaced by a link to a file outside the
 * job folder (no timing: the swap happens after loadJobs, before run).
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('a document swapped after validation', () => {
  it('is not sent: its envelope fails with SR_DOC_CHANGED and the service holds nothing of it', async () => {
    const dir = await fanOutJob(1, 'swap');
    const loaded = await loadJobs([dir], { cwd: dir, env: {} });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const outside = path.join(await mkdtemp(path.join(os.tmpdir(), 'signrun-secret-')), 'payroll.pdf');
    await copyFile(path.join(repoRoot, 'examples/docs/company-handbook.pdf'), outside);
    const offer = path.join(dir, 'docs/offer-letter.pdf');
    await rm(offer);
    await symlink(outside, offer);

    const summary = await runCollected({
      jobs: loaded.jobs,
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth: sandboxSeedAuth() },
      outDir: await mkdtemp(path.join(os.tmpdir(), 'signrun-swap-out-')),
      concurrency: 1,
    });
    const [result] = summary.envelopes;
    expect(result?.outcome).toBe('failed');
    expect(result?.error?.code).toBe('SR_DOC_CHANGED');

    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
    const listed = await (await client.login()).listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
    client.close();
    expect(listed.envelopes ?? []).toEqual([]);
  });
});
