import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { SigningRecord } from '../../src/output/records.js';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob, readReport, sandboxEnv, validateReport } from './run-helpers.js';

// Issue 24, item 1: `run --signing-urls on-demand` makes no signing address at
// send (two calls an envelope, not two plus one per embedded signer);
// signing.json still lists every embedded signer in turn, and `sign-url`
// (or `links serve`) makes the address when the person arrives.
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('run --signing-urls', () => {
  it('on-demand: no view at send, every signer listed, an address made by sign-url; at-send for comparison', async () => {
    const demand = await fanOutJob(10, 'on-demand');
    const env = sandboxEnv(sandbox);
    const run = await runCli(['run', '.', '--out', 'out', '--signing-urls', 'on-demand'], { cwd: demand, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('20 embedded signer(s) get their signing address on demand');
    const report = await readReport(path.join(demand, 'out'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.api.byOperation['createRecipientView'] ?? 0).toBe(0);
    expect(report.envelopes.flatMap((e) => e.recipients.map((r) => r.signing))).toEqual(Array(20).fill('on-demand'));
    const signing = JSON.parse(
      await readFile(path.join(demand, 'out/on-demand/e-E10001/signing.json'), 'utf8'),
    ) as SigningRecord;
    expect(signing.recipients.map((r) => [r.clientUserId, r.state, r.url])).toEqual([
      ['emp-E10001', 'on-demand', undefined],
      ['mgr-E10001', 'on-demand', undefined],
    ]);
    const url = await runCli(['sign-url', 'out', 'e-E10001', 'mgr-E10001'], { cwd: demand, env });
    expect(url.code, url.stderr).toBe(0);
    expect(url.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/signing\/\S+$/m);
    // A re-run has nothing to make: the signers are listed, their addresses are made on demand.
    const again = await runCli(['run', '.', '--out', 'out', '--signing-urls', 'on-demand'], { cwd: demand, env });
    expect(again.code).toBe(0);
    expect((await readReport(path.join(demand, 'out'))).api.byOperation['createRecipientView'] ?? 0).toBe(0);

    const atSend = await fanOutJob(10, 'at-send');
    const sent = await runCli(['run', '.', '--out', 'out'], { cwd: atSend, env });
    expect(sent.code).toBe(0);
    const both = await readReport(path.join(atSend, 'out'));
    expect(both.api.byOperation['createRecipientView']).toBe(20);
    // The same run but for the 20 views (give or take a confirmation listing).
    expect(Math.abs(both.api.calls - 20 - report.api.calls)).toBeLessThanOrEqual(2);
  });

  it('the config file’s signingUrls is the default; the flag wins', async () => {
    const dir = await fanOutJob(2, 'from-config');
    await writeFile(path.join(dir, '.signrunrc.json'), JSON.stringify({ signingUrls: 'on-demand' }));
    const env = sandboxEnv(sandbox);
    const run = await runCli(['run', 'fan-out.yaml', '--out', 'out'], { cwd: dir, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await readReport(path.join(dir, 'out'))).api.byOperation['createRecipientView'] ?? 0).toBe(0);
    const other = await fanOutJob(2, 'flag-wins');
    await writeFile(path.join(other, '.signrunrc.json'), JSON.stringify({ signingUrls: 'on-demand' }));
    const flagged = await runCli(['run', 'fan-out.yaml', '--out', 'out', '--signing-urls', 'at-send'], {
      cwd: other,
      env,
    });
    expect(flagged.code).toBe(0);
    expect((await readReport(path.join(other, 'out'))).api.byOperation['createRecipientView']).toBe(4);
  });
});
