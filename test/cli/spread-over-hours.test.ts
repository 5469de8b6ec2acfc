import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { movableClock } from '../../src/sandbox/esignature/envelopes/notifications/movable-clock.js';
import { realTiming, type Timing } from '../../src/client/timing.js';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob, readReport, sandboxEnv, validateReport } from './run-helpers.js';

// Issue 24, item 4: a run whose calls do not fit in the hour spreads them
// over hours (`--spread-over-hours`): it waits for the service's reset —
// measured from the service's own clock (its Date header) — and goes on,
// saying when, and finishes without a failed envelope. The sandbox keeps
// DocuSign's clock hour; the run and the sandbox share one movable clock
// (the CLI's CommandIO `timing`), and the run's waits move it: the hours
// pass on the clock, not in real time. The run cannot tell.
const clock = movableClock();
const timing: Timing = {
  ...realTiming,
  now: () => clock.now(),
  async delay(ms, signal) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    clock.advance(ms);
    await setImmediate();
  },
};
let sandbox: RunningSandbox;
const refused: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox(
    {
      port: 0,
      hourlyLimit: 12,
      log: (line) => {
        if (/ 429 /.test(line)) refused.push(line);
      },
    },
    { clock },
  );
});
afterAll(async () => sandbox?.close());

describe('run --spread-over-hours', () => {
  it('goes on in the next windows until every envelope is sent, none failed, none refused', async () => {
    const dir = await fanOutJob(10, 'spread');
    const run = await runCli(['run', '.', '--out', 'out', '--spread-over-hours'], {
      cwd: dir,
      env: sandboxEnv(sandbox),
      timing,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const waits = run.stdout.match(/^The hourly call budget is spent: waiting until .* to go on/gm) ?? [];
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(run.stdout).toMatch(/call\(s\) to go need about \d+ more hourly window\(s\)/);

    const report = await readReport(path.join(dir, 'out'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.envelopes).toHaveLength(10);
    expect(report.envelopes.every((e) => e.outcome === 'succeeded')).toBe(true);
    expect(report.callBudget).toMatchObject({ exhausted: false });
    expect(report.callBudget?.windows).toBe(waits.length + 1);
    // Two waits or more: at least one whole hour went by, on the run's clock.
    expect(Date.parse(report.endedAt) - Date.parse(report.startedAt)).toBeGreaterThan(3_600_000);
    // More calls than one window allows, yet the service never had to refuse one.
    expect(report.api.calls).toBeGreaterThan(12 * 2);
    expect(refused).toEqual([]);
    const envelopeJson = JSON.parse(await readFile(path.join(dir, 'out/spread/e-E10010/envelope.json'), 'utf8')) as {
      status: string;
    };
    expect(envelopeJson.status).toBe('sent');
  });

  it('without it, the run stops when the window is spent and says when to go on', async () => {
    const dir = await fanOutJob(10, 'stop');
    const run = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox), timing });
    expect(run.code).toBe(1);
    const report = await readReport(path.join(dir, 'out'));
    expect(report.callBudget).toMatchObject({ exhausted: true, code: 'SR_CALL_BUDGET_SPENT' });
    expect(report.envelopes.some((e) => e.outcome === 'not-started')).toBe(true);
  });
});
