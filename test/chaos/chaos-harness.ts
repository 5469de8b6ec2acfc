import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import { faultKinds, type FaultKind } from '../../src/sandbox/platform/faults/fault-spec.js';
import { repoRoot } from '../helpers/run-cli.js';

/**
 * What bench/chaos/chaos.mjs prints with --json. Every count below except
 * `runs` and `reportSucceeded` is read from the sandbox's own database
 * (`envelope_custom_fields`, `envelopes`) or from the bytes on disk, not from
 * the runner's report, so a duplicate or a lost envelope cannot hide.
 */
export interface ChaosResult {
  envelopes: number;
  runs: Array<{ exit: number | string | null; seconds: number; killedAt?: number }>;
  injected: Record<string, number>;
  apiRequests: number;
  /** Envelopes in the sandbox's database carrying one of the job's identities. */
  createdInSandbox: number;
  distinctIdentities: number;
  duplicatedIdentities: number;
  missingIdentities: number;
  reportSucceeded: number;
  reportUnaccounted: number;
  reportedEnvelopeIdsMissingInSandbox: number;
  files: number;
  filesWithWrongSha256: number;
  /** Outputs the state folders' journals promise (a view's signing.json, each download), checked file by file. */
  promisesChecked: number;
  /** Of those, missing or other bytes on disk, or (signing.json) addresses the sandbox never issued for that envelope. */
  promisesBroken: number;
  /** Identities with a signing.json whose every address the sandbox issued for the identity's envelope. */
  signingFiles: number;
  /** Times the sandbox was killed with SIGKILL and restarted on the same port and data. */
  sandboxKilled: number;
  mergeExit?: number;
  lockRefusals?: number;
}

/**
 * Runs the chaos benchmark's chain (bench/chaos/chaos.mjs: a `serve --data`
 * child with --faults, `signrun run` children, kills, re-runs, checks) on the
 * work tree's dist/, which `npm test` has just built. One implementation for
 * the benchmark and the suite: the test only chooses smaller sizes. `stderr` ends
 * with the result line, so that a failed check shows the whole result.
 */
export function runChaos(args: string[]): Promise<{ result: ChaosResult; exit: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'bench/chaos/chaos.mjs'), '--json', '--no-snapshot', ...args],
    {
      cwd: repoRoot,
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DOCUSIGN_'))),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // Stopped before vitest's limit: chaos.mjs then ends its serve and runs, which would otherwise go on using
  // the cores after a time-out, slowing every file after it.
  const timer = setTimeout(() => child.kill('SIGTERM'), scenarioTimeoutMs - 5_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exit) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        // The result goes with stderr into a failing assertion's message: which check failed, in which run.
        resolve({ result: JSON.parse(line) as ChaosResult, exit, stderr: `${stderr}\n${line}` });
      } catch {
        reject(new Error(`chaos.mjs exited ${String(exit)} without a result:\n${stdout}\n${stderr}`));
      }
    });
  });
}

/**
 * `all=P` written out kind by kind, with short waits: the same probabilities
 * (P spread evenly over the seven kinds, as `all=` does), hence the same
 * seeded draws and the same faults on the same requests, but a `slow` answer
 * held 200 ms instead of 2 s and a `429` asking to retry after 0 s instead of
 * 1 s. No client call has a time-out those 2 s would cross, so a slow answer
 * still arrives late, after its commit, and a 429 is still refused before
 * processing and retried; the waits themselves tested nothing (Retry-After
 * and the hourly limits are waited for in test/runner/rate-limits and
 * test/cli/spread-over-hours), yet stood on each run's critical path.
 */
export function allFaults(probability: number): string {
  const p = probability / faultKinds.length;
  const param: Partial<Record<FaultKind, string>> = { slow: ':200', '429': ':0' };
  return faultKinds.map((kind) => `${kind}=${p}${param[kind] ?? ''}`).join(',');
}

/**
 * A scenario's limit: kills, re-runs and checks on a busy machine. The runner-kill scenario's six
 * runs took 106–109 s at load 17–19 (its kills wait for each killed run to be mid-work), so 180 s.
 */
export const scenarioTimeoutMs = 180_000;

/** Exactly once and complete, every count from the sandbox's database or the bytes on disk. */
export function expectExactlyOnceAndComplete(r: ChaosResult, n: number): void {
  expect(r.createdInSandbox).toBe(n);
  expect(r.distinctIdentities).toBe(n);
  expect(r.duplicatedIdentities).toBe(0);
  expect(r.missingIdentities).toBe(0);
  expect(r.reportedEnvelopeIdsMissingInSandbox).toBe(0);
  expect(r.reportSucceeded).toBe(n);
  expect(r.reportUnaccounted).toBe(0);
  // signing.json, envelope.json, the template's document and the certificate, per envelope.
  expect(r.files).toBeGreaterThanOrEqual(n * 3);
  expect(r.filesWithWrongSha256).toBe(0);
  // Issue 25: every output a journal promises is on disk, and every envelope has its signing addresses.
  expect(r.promisesBroken).toBe(0);
  expect(r.promisesChecked).toBeGreaterThanOrEqual(n);
  expect(r.signingFiles).toBe(n);
}
