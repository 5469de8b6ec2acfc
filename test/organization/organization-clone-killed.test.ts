import path from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { startCloneRun, useHeldCloneSandbox } from './held-clone.js';

/**
 * Issue 34: a run killed (SIGKILL) while the organisation clones the account,
 * and run again, leaves exactly one clone — the organisation's record (the
 * clone still running) is followed, not asked again. The sandbox's clock is
 * held still, so the clone cannot finish before the kill; it is moved on
 * before the second run.
 */
const held = useHeldCloneSandbox();

it('a run killed during the clone, run again, leaves exactly one clone', async () => {
  const dir = await tempDir('signrun-org-kill-');
  const run = await startCloneRun(dir, held.sandbox(), {
    job: 'org-kill',
    key: 'acme-it',
    accountName: 'Acme Italia',
    adminEmail: 'admin@acme.it',
  });
  // The clone is asked for (the clock stands still: it stays Pending until moved).
  await held.cloneIsAsked;
  expect(held.clones()).toBe(1);
  run.child.kill('SIGKILL');
  expect((await run.exited).signal).toBe('SIGKILL');
  expect(held.count("SELECT COUNT(*) AS n FROM asset_group_works WHERE status = 'Pending'")).toBe(1);

  // The organisation finishes its work; a run again follows it instead of cloning anew.
  held.moveOn(60_000);
  const again = await runCli(['run', 'clone.yaml', '--out', 'out'], { cwd: dir, env: sandboxEnv(held.sandbox()) });
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  // The organisation lists the clone by now: the run takes it as the entry's account (adopted, journalled).
  const cloneId = (held.db().prepare("SELECT id FROM accounts WHERE name = 'Acme Italia'").get() as { id: string }).id;
  expect(report.accounts[0]).toMatchObject({ key: 'acme-it', outcome: 'up-to-date', accountId: cloneId });
  expect(report.api.byOperation['cloneAccount'] ?? 0).toBe(0);
  expect(held.clones()).toBe(1);
  expect(held.count("SELECT COUNT(*) AS n FROM accounts WHERE name = 'Acme Italia'")).toBe(1);
}, 180_000);
