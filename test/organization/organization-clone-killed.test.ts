import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { binPath, cliEnv, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * Issue 34: a run killed (SIGKILL) while the organisation clones the account,
 * and run again, leaves exactly one clone — the organisation's record (the
 * clone still running) is followed, not asked again. The sandbox's clock is
 * held still, so the clone cannot finish before the kill; it is moved on
 * before the second run.
 */
let sandbox: RunningSandbox;
// Held at the real time the test starts (the JWT grant's assertion carries the real time).
let now = Date.now() + 30_000;
const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55';
const mainAccountId = '5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11';

// Barrier: the sandbox reads its clock as it handles each request; once the clone work is there, it opens.
let cloneAsked!: () => void;
const cloneIsAsked = new Promise<void>((resolve) => (cloneAsked = resolve));
let asked = false;
const clock = {
  now: () => {
    if (!asked && sandbox && clones() > 0) {
      asked = true;
      cloneAsked();
    }
    return now;
  },
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true }, { clock });
});
afterAll(async () => {
  await sandbox?.close();
});

interface Db {
  prepare(sql: string): { get(...a: unknown[]): unknown };
}
const db = () => (sandbox.app as unknown as { sandbox: { db: Db } }).sandbox.db;
const count = (sql: string, ...args: unknown[]) =>
  (
    db()
      .prepare(sql)
      .get(...args) as { n: number }
  ).n;
const clones = () => count("SELECT COUNT(*) AS n FROM asset_group_works WHERE work_type LIKE '%lone%'");

it('a run killed during the clone, run again, leaves exactly one clone', async () => {
  const dir = await tempDir('signrun-org-kill-');
  await writeFile(
    path.join(dir, 'clone.yaml'),
    `version: 1
job: org-kill
accounts:
  - key: acme-it
    accountName: Acme Italia
    organizationId: ${organizationId}
    cloneOf: ${mainAccountId}
    admin: { email: admin@acme.it }
`,
  );
  const env = sandboxEnv(sandbox);
  const child = spawn(process.execPath, [binPath, 'run', 'clone.yaml', '--out', 'out'], {
    cwd: dir,
    env: cliEnv(env),
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  // The clone is asked for (the clock stands still: it stays Pending until moved).
  await cloneIsAsked;
  expect(clones()).toBe(1);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(count("SELECT COUNT(*) AS n FROM asset_group_works WHERE status = 'Pending'")).toBe(1);

  // The organisation finishes its work; a run again follows it instead of cloning anew.
  now += 60_000;
  const again = await runCli(['run', 'clone.yaml', '--out', 'out'], { cwd: dir, env });
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  // The organisation lists the clone by now: the run takes it as the entry's account (adopted, journalled).
  const cloneId = (db().prepare("SELECT id FROM accounts WHERE name = 'Acme Italia'").get() as { id: string }).id;
  expect(report.accounts[0]).toMatchObject({ key: 'acme-it', outcome: 'up-to-date', accountId: cloneId });
  expect(report.api.byOperation['cloneAccount'] ?? 0).toBe(0);
  expect(clones()).toBe(1);
  expect(count("SELECT COUNT(*) AS n FROM accounts WHERE name = 'Acme Italia'")).toBe(1);
}, 180_000);
