import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's globalSetup: every temp folder of a test run (the helpers'
 * mkdtemp, the CLI and sandbox processes the tests start, chromium's
 * profiles) is made under one folder of this run, removed when the run
 * ends. The test files make hundreds a run, and cleaning each up in its own
 * afterAll is a rule nothing checks: a day of runs had left 7,251 folders in
 * /tmp. Set before any worker starts, so workers and the processes they
 * spawn inherit it (os.tmpdir() reads TMPDIR).
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'signrun-test-run-'));
  process.env.TMPDIR = root;
  // Chromium may still be writing its profile as the run ends (its processes outlive the browser's
  // close by a moment): a folder that empties late is tried again, as rm -rf would be by hand.
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
