import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { SandboxEvent } from '../../src/sandbox/index.js';
import { Changes } from '../helpers/barrier.js';
import { fanOutJob, readReport, sandboxEnv } from './run-helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  // A slow service, so that the run is still going when Ctrl-C comes.
  sandbox = await startSandbox({ port: 0, quiet: true, latencyMs: 40 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('signrun run, interrupted', () => {
  it('a second run on the same outputs is refused (lock); first Ctrl-C: starts nothing new, finishes work in flight, writes the report, exits 130', async () => {
    // 40 rows (200 before issue 38): Ctrl-C comes once a third envelope is
    // sent, so most rows are still to start whatever N is.
    const dir = await fanOutJob(40, 'interrupted');
    // The job checked in this process first: the second run below then reaches
    // the lock in well under the time the first takes to send its 40 envelopes
    // (cold, loading the CLI's modules took longer than the whole run).
    expect((await runCli(['validate', '.'], { cwd: dir, env: sandboxEnv(sandbox) })).code).toBe(0);
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...sandboxEnv(sandbox),
      NO_COLOR: '1',
    };
    const child = spawn(process.execPath, [binPath, 'run', '.', '--concurrency', '2'], {
      cwd: dir,
      env,
      stdio: 'pipe',
    });
    // With --concurrency 2, a third envelope is sent only once one of the
    // first two has finished: Ctrl-C after that leaves one succeeded, whatever
    // the machine's speed (no fixed wait).
    const sent = new Set<string>();
    const changes = new Changes();
    const onEvent = (event: SandboxEvent) => {
      if (event.type !== 'envelope-sent') return;
      sent.add(event.envelopeId);
      changes.changed();
    };
    sandbox.app.sandbox.events.on('event', onEvent);
    // The first run's calls wait until the second run has been refused: Ctrl-C
    // then comes while most rows are unstarted, however slow the machine (on a
    // loaded one, the refusal took as long as sending 25 of the 40).
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const services = sandbox.app.sandbox;
    const ownDelay = services.delay;
    services.delay = async (ms) => {
      await opened;
      await ownDelay(ms);
    };
    let stdout = '';
    let stderr = '';
    let second: ReturnType<typeof runCli> | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      // Once the run is under way: a second run on the same outputs is refused, then Ctrl-C.
      if (stdout.includes('Running 40 envelope') && !second) {
        second = runCli(['run', '.'], { cwd: dir, env: sandboxEnv(sandbox) });
        void second.then(async () => {
          open();
          await changes.until(() => sent.size > 2);
          child.kill('SIGINT');
        });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    sandbox.app.sandbox.events.off('event', onEvent);
    services.delay = ownDelay;
    expect(code, stderr).toBe(130);
    const refused = await second;
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain('SR_STATE_LOCKED');
    expect(stderr).toMatch(/Ctrl-C/);
    const report = await readReport(path.join(dir, 'out'));
    expect(report.interrupted).toBe(true);
    expect(report.totals.envelopes.total).toBe(40);
    expect(report.totals.envelopes.succeeded).toBeGreaterThan(0);
    expect(report.totals.envelopes.notStarted).toBeGreaterThan(20);
    expect(report.totals.envelopes.failed).toBe(0);
    expect(stdout).toMatch(/Interrupted/);
  });
});
