import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob, sandboxEnv } from './run-helpers.js';

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
