import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { checkReport } from '../../src/reporters/report-schema.js';
import { fanOutJob, readReport, sandboxEnv } from './run-helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('signrun run --max-calls-per-hour', () => {
  it('spent: exit 1, SR_CALL_BUDGET_SPENT and the time to resume in the console and report.json; the same command later sends the rest, none twice', async () => {
    const dir = await fanOutJob(10, 'budgeted');
    const first = await runCli(['run', '.', '--max-calls-per-hour', '30', '--concurrency', '2'], {
      cwd: dir,
      env: sandboxEnv(sandbox),
    });
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toContain('SR_CALL_BUDGET_SPENT');
    const report = await readReport(path.join(dir, 'out'));
    expect(checkReport(report)).toEqual([]);
    expect(report.callBudget).toMatchObject({ maxCallsPerHour: 30, exhausted: true, code: 'SR_CALL_BUDGET_SPENT' });
    expect(report.api.calls).toBeLessThanOrEqual(30);
    expect(first.stdout).toContain(report.callBudget?.resumeAt ?? 'missing');
    expect(report.totals.envelopes.failed).toBe(0);
    const sent = report.totals.envelopes.succeeded;
    expect(sent).toBeGreaterThan(0);
    expect(report.totals.envelopes.notStarted).toBe(10 - sent);
    // `report merge` of that report reaches the same verdict as the run (it exited 0 before).
    const merged = await runCli(['report', 'merge', 'out/report.json', '--out', 'merged'], { cwd: dir });
    expect(merged.code, merged.stderr).toBe(1);

    const second = await runCli(['run', '.', '--max-calls-per-hour', '500'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(second.code, second.stderr).toBe(0);
    const after = await readReport(path.join(dir, 'out'));
    expect(after.totals.envelopes.succeeded).toBe(10);
    expect(after.api.byOperation['createEnvelope']).toBe(10 - sent);
    expect(after.callBudget).toMatchObject({ exhausted: false });
  });
});
