import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { binPath, cliEnv } from '../helpers/run-cli.js';
import { sandboxEnv } from '../cli/run-helpers.js';

export const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55';
export const mainAccountId = '5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11';

interface Db {
  prepare(sql: string): { get(...a: unknown[]): unknown };
}

/**
 * A sandbox (started before the file's tests, closed after) whose clock
 * stands still, so that an organisation's clone stays Pending until the test
 * moves the clock on; `cloneIsAsked` opens once the clone work exists (the
 * sandbox reads its clock as it handles each request), the barrier a test
 * stops the run at.
 */
export function useHeldCloneSandbox() {
  let sandbox: RunningSandbox | undefined;
  // Held at the real time the test starts (the JWT grant's assertion carries the real time).
  let now = Date.now() + 30_000;
  let cloneAsked!: () => void;
  const cloneIsAsked = new Promise<void>((resolve) => (cloneAsked = resolve));
  let asked = false;
  const db = () => (sandbox!.app as unknown as { sandbox: { db: Db } }).sandbox.db;
  const count = (sql: string, ...args: unknown[]) =>
    (
      db()
        .prepare(sql)
        .get(...args) as { n: number }
    ).n;
  const clones = () => count("SELECT COUNT(*) AS n FROM asset_group_works WHERE work_type LIKE '%lone%'");
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
  return {
    sandbox: () => sandbox!,
    db,
    count,
    clones,
    cloneIsAsked,
    /** The organisation's work finishes: its clock moves on. */
    moveOn: (ms: number) => (now += ms),
  };
}

/**
 * Writes clone.yaml (one account entry cloned from the main account) in
 * `dir` and starts `signrun run clone.yaml --out out` there as its own
 * process, its output gathered.
 */
export async function startCloneRun(
  dir: string,
  sandbox: RunningSandbox,
  entry: { job: string; key: string; accountName: string; adminEmail: string },
) {
  await writeFile(
    path.join(dir, 'clone.yaml'),
    `version: 1
job: ${entry.job}
accounts:
  - key: ${entry.key}
    accountName: ${entry.accountName}
    organizationId: ${organizationId}
    cloneOf: ${mainAccountId}
    admin: { email: ${entry.adminEmail} }
`,
  );
  const child = spawn(process.execPath, [binPath, 'run', 'clone.yaml', '--out', 'out'], {
    cwd: dir,
    env: cliEnv(sandboxEnv(sandbox)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}
