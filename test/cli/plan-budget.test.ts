import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../helpers/run-cli.js';
import { fanOutJob, readReport, sandboxEnv, tempDir } from './run-helpers.js';

// Issue 24, the budget planner: `plan` says how many calls a run needs and,
// at the account's hourly limit (the X-RateLimit headers of its answers, or
// DocuSign's default), whether they fit in this hour or how many hours they take.
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, hourlyLimit: 40 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('plan: the hourly budget', () => {
  it('a campaign beyond the hour: the calls, the limit the service announced, and the hours they take', async () => {
    const dir = await fanOutJob(30);
    const result = await runCli(['plan', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    const budget = result.stdout.split('\n').find((l) => l.startsWith('Budget:'));
    const [, calls, limit, left, hours] =
      /^Budget: about (\d+) calls; this account allows (\d+) calls an hour \((\d+) left.*needs about (\d+) hours/.exec(
        budget ?? '',
      ) ?? [];
    expect(budget).toBeDefined();
    expect(Number(limit)).toBe(40);
    // 30 envelopes are at least 60 calls (draft and send each): more than the hour allows.
    expect(Number(calls)).toBeGreaterThanOrEqual(60);
    expect(Number(hours)).toBe(1 + Math.ceil((Number(calls) - Number(left)) / 40));
  });

  it('a small job fits in this hour', async () => {
    const dir = await fanOutJob(2);
    const result = await runCli(['plan', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Budget: about \d+ calls; this account allows 40 calls an hour .*: the run fits in this hour\.$/m,
    );
  });
});

describe('plan --bulk-send: the calls as Bulk Send makes them', () => {
  it('counts the lists, sends and batch looks instead of a draft and a send per row, as the run then spends', async () => {
    const service = await startSandbox({ port: 0, quiet: true });
    try {
      const dir = await tempDir('signrun-plan-bulk-');
      await mkdir(path.join(dir, 'docs'));
      await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
      const rows = Array.from({ length: 40 }, (_, i) => `id${i},Person ${i},p${i}@example.com`);
      await writeFile(path.join(dir, 'data.csv'), ['id,name,email', ...rows, ''].join('\n'));
      await writeFile(
        path.join(dir, 'bulk.yaml'),
        [
          'version: 1',
          'job: bulk-plan',
          'envelopes:',
          '  - key: offer-${row.id}',
          '    forEach: { csv: data.csv }',
          '    emailSubject: Your offer',
          '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
          '    recipients: [{ name: "${row.name}", email: "${row.email}" }]',
          '',
        ].join('\n'),
      );
      const env = sandboxEnv(service);
      const calls = (stdout: string) => Number(/about (\d+) API calls/.exec(stdout)?.[1]);
      const oneByOne = await runCli(['plan', '.', '--out', 'out'], { cwd: dir, env });
      const bulk = await runCli(['plan', '.', '--out', 'out', '--bulk-send'], { cwd: dir, env });
      expect(bulk.code, bulk.stderr).toBe(0);
      expect(bulk.stdout).toMatch(/^\s+create\s+bulk-plan\/offer-id0\s+0 call\(s\)\s+\[bulk send\]$/m);
      expect(calls(oneByOne.stdout)).toBeGreaterThanOrEqual(80);
      expect(calls(bulk.stdout)).toBeLessThan(20);

      const run = await runCli(['run', '.', '--out', 'out', '--bulk-send'], { cwd: dir, env });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const spent = (await readReport(path.join(dir, 'out'))).api.calls;
      // An estimate: within a few calls of what the run spent (the batch looks vary with the sandbox's pace).
      expect(Math.abs(spent - calls(bulk.stdout))).toBeLessThanOrEqual(4);
    } finally {
      await service.close();
    }
  });
});
