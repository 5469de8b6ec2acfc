import { describe, expect, it } from 'vitest';
import { allFaults, expectExactlyOnceAndComplete, runChaos, scenarioTimeoutMs } from './chaos-harness.js';

// Issue 6, "Done when", sized for the suite (20 or 30 envelopes instead of
// 500, 5 runner kills instead of 20); bench/chaos runs the full sizes. A kill
// lands once the sandbox has answered a seeded number of the run's API
// requests (--kill-after-requests: a barrier, not a timer), so the killed run
// is mid-work whatever the load and whatever the size of the job; timed kills
// (0.5–2 s) needed 60 to 100 rows, and on a busy machine often met a runner
// still starting. The five scenarios are in three files (chaos,
// chaos-runner-kills, chaos-sandbox-kill) so that vitest's two workers share
// them (issue 38); the scenarios of one file run one after another.

describe('chaos (issue 6): exactly once and nothing lost, the sandbox killed and shards merged', () => {
  it(
    'the sandbox (serve --data) killed with SIGKILL mid-run and restarted on the same port and data: the run completes, nothing answered 201 is lost',
    async () => {
      // 20 (60 before issue 38): the kill comes after 1 to 80 answered requests, and the job needs over 120.
      const n = 20;
      const { result, exit, stderr } = await runChaos([
        '--envelopes',
        String(n),
        '--faults',
        allFaults(0.05),
        '--sandbox-kills',
        '1',
        '--kill-after-requests',
        '80',
        '--seed',
        '7',
      ]);
      expect(exit, stderr).toBe(0);
      expect(result.sandboxKilled).toBe(1);
      expectExactlyOnceAndComplete(result, n);
    },
    scenarioTimeoutMs,
  );

  it(
    'three shards in parallel on one job, under faults, merged: exactly once, complete, one merged report',
    async () => {
      // 15 (60, then 30, in issue 38): five a shard; nothing here waits on a timer, so fewer rows test the same merge.
      const n = 15;
      const { result, exit, stderr } = await runChaos([
        '--envelopes',
        String(n),
        '--faults',
        allFaults(0.05),
        '--shards',
        '3',
        '--seed',
        '11',
      ]);
      expect(exit, stderr).toBe(0);
      expect(result.mergeExit).toBe(0);
      expectExactlyOnceAndComplete(result, n);
    },
    scenarioTimeoutMs,
  );
});
