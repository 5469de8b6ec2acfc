import path from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { startCloneRun, useHeldCloneSandbox } from './held-clone.js';

/**
 * Ctrl-C (SIGINT) while the organisation clones the account: the run stops
 * waiting for the organisation's work and says so (SR_INTERRUPTED, exit
 * 130), not as an internal error to report (SR_INTERNAL, "This operation
 * was aborted", before stop 51); the same command run again follows the
 * work to its end without asking for a second clone. The sandbox's clock is
 * held still, so the clone stays Pending until it is moved on.
 */
const held = useHeldCloneSandbox();

it('Ctrl-C while the organisation clones: SR_INTERRUPTED with what to do, then one clone followed by the next run', async () => {
  const dir = await tempDir('signrun-org-int-');
  const run = await startCloneRun(dir, held.sandbox(), {
    job: 'org-int',
    key: 'acme-pt',
    accountName: 'Acme Portugal',
    adminEmail: 'admin@acme.pt',
  });
  // The clone is asked for (the clock stands still: it stays Pending until moved), then Ctrl-C.
  await held.cloneIsAsked;
  run.child.kill('SIGINT');
  expect((await run.exited).code, run.output()).toBe(130);
  expect(run.output()).not.toMatch(/SR_INTERNAL|operation was aborted/);
  const stopped = await readReport(path.join(dir, 'out'));
  expect(stopped.accounts[0]!.error).toMatchObject({ code: 'SR_INTERRUPTED' });
  expect(stopped.accounts[0]!.error!.message).toMatch(
    /while the organisation clones account "Acme Portugal" .*run the same command again/,
  );

  // The organisation finishes its work; the run again follows it instead of cloning anew.
  held.moveOn(60_000);
  const again = await runCli(['run', 'clone.yaml', '--out', 'out'], { cwd: dir, env: sandboxEnv(held.sandbox()) });
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  expect(report.accounts[0]).toMatchObject({ key: 'acme-pt', outcome: 'up-to-date' });
  expect(report.api.byOperation['cloneAccount'] ?? 0).toBe(0);
  expect(held.clones()).toBe(1);
}, 180_000);
