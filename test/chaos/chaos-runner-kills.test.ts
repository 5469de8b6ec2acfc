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

describe('chaos (issue 6): exactly once and nothing lost, the runner killed', () => {
  it(
    'the runner killed with SIGKILL at 5 seeded moments, each followed by a re-run: exactly once and complete',
    async () => {
      // 20 (100 before issue 38). Each kill comes after 1 to 40 answered requests of its run: with seed 5 after
      // 5, 11, 39, 27 and 25 (the draws follow from the seed alone), 107 in all, each run's first four or five
      // (login, template, listing) redone, where the job needs over 120 (six a contract at least): every one of
      // the five lands on a run mid-work, and the later ones after sends (8 contracts at a time).
      const n = 20;
      const { result, exit, stderr } = await runChaos([
        '--envelopes',
        String(n),
        '--faults',
        allFaults(0.05),
        '--runner-kills',
        '5',
        '--kill-after-requests',
        '40',
        '--seed',
        '5',
      ]);
      expect(exit, stderr).toBe(0);
      // All five killed (at least 3 while kills were timed: a run could end before its moment came).
      expect(result.runs.slice(0, 5).map((r) => r.exit)).toEqual(Array(5).fill('SIGKILL'));
      expect(result.runs.at(-1)?.exit).toBe(0);
      expectExactlyOnceAndComplete(result, n);
    },
    scenarioTimeoutMs,
  );
});
