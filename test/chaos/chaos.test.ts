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

describe('chaos (issue 6): exactly once and nothing lost, under faults and twin runs', () => {
  it(
    'faults of every kind at 10% in total: every envelope created once, every file as the service serves it',
    async () => {
      // 20 (60 with seed 3 before issue 38). The faults follow from the seed and the order of requests alone (one
      // draw a request), and with seed 13 the six kinds below have all come by the 41st request; 20 contracts
      // make over 120 (node bench/chaos/fault-draws.mjs all=0.1 13 prints the draws).
      const n = 20;
      const { result, exit, stderr } = await runChaos([
        '--envelopes',
        String(n),
        '--faults',
        allFaults(0.1),
        '--seed',
        '13',
      ]);
      expect(exit, stderr).toBe(0);
      expectExactlyOnceAndComplete(result, n);
      // Every kind was met at least once (else the run proved nothing about it); truncate only hits downloads.
      for (const kind of ['429', '500', '503', 'reset-before', 'reset-after', 'slow'])
        expect(result.injected[kind], kind).toBeGreaterThan(0);
      const total = Object.values(result.injected).reduce((a, b) => a + b, 0);
      expect(total / result.apiRequests).toBeGreaterThan(0.05);
      expect(total / result.apiRequests).toBeLessThan(0.15);
    },
    scenarioTimeoutMs,
  );

  it(
    'two runs of the same job started at once: one refuses with SR_STATE_LOCKED, every envelope created once',
    async () => {
      // 20 (40 before issue 38): the twins start together and the refusal comes at the lock, before any call;
      // a run of 20 contracts holds it for seconds, long past the other's start.
      const n = 20;
      const { result, exit, stderr } = await runChaos([
        '--envelopes',
        String(n),
        '--faults',
        allFaults(0.05),
        '--twins',
        '--max-runs',
        '1',
        '--seed',
        '9',
      ]);
      expect(exit, stderr).toBe(0);
      expect(result.lockRefusals).toBe(1);
      expectExactlyOnceAndComplete(result, n);
    },
    scenarioTimeoutMs,
  );
});
