import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { binPath, cliEnv, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * Ctrl-C (SIGINT) while the organisation clones the account: the run stops
 * waiting for the organisation's work and says so (SR_INTERRUPTED, exit
 * 130), not as an internal error to report (SR_INTERNAL, "This operation
 * was aborted", before stop 51); the same command run again follows the
 * work to its end without asking for a second clone. The sandbox's clock is
 * held still, so the clone stays Pending until it is moved on.
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
const clones = () =>
  (db().prepare("SELECT COUNT(*) AS n FROM asset_group_works WHERE work_type LIKE '%lone%'").get() as { n: number }).n;

it('Ctrl-C while the organisation clones: SR_INTERRUPTED with what to do, then one clone followed by the next run', async () => {
  const dir = await tempDir('signrun-org-int-');
  await writeFile(
    path.join(dir, 'clone.yaml'),
    `version: 1
job: org-int
accounts:
  - key: acme-pt
    accountName: Acme Portugal
    organizationId: ${organizationId}
    cloneOf: ${mainAccountId}
    admin: { email: admin@acme.pt }
`,
  );
  const env = sandboxEnv(sandbox);
  const child = spawn(process.execPath, [binPath, 'run', 'clone.yaml', '--out', 'out'], {
    cwd: dir,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // The clone is asked for (the clock stands still: it stays Pending until moved), then Ctrl-C.
  await cloneIsAsked;
  child.kill('SIGINT');
  expect(await exited, output).toBe(130);
  expect(output).not.toMatch(/SR_INTERNAL|operation was aborted/);
  const stopped = await readReport(path.join(dir, 'out'));
  expect(stopped.accounts[0]!.error).toMatchObject({ code: 'SR_INTERRUPTED' });
  expect(stopped.accounts[0]!.error!.message).toMatch(
    /while the organisation clones account "Acme Portugal" .*run the same command again/,
  );

  // The organisation finishes its work; the run again follows it instead of cloning anew.
  now += 60_000;
  const again = await runCli(['run', 'clone.yaml', '--out', 'out'], { cwd: dir, env });
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  expect(report.accounts[0]).toMatchObject({ key: 'acme-pt', outcome: 'up-to-date' });
  expect(report.api.byOperation['cloneAccount'] ?? 0).toBe(0);
  expect(clones()).toBe(1);
}, 180_000);
