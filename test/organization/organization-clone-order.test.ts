import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { workDelayMs } from './work-delay.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * Issue 34: a `cloneOf` naming an entry the same job file lists later is
 * taken in dependency order — the source is planned and created first, the
 * clone after it — even with one request at a time. The real CLI
 * (in-process) against a real sandbox.
 */
let sandbox: RunningSandbox;
const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, workDelayMs });
});
afterAll(async () => {
  await sandbox?.close();
});

it('a clone listed before its source: the source is created first, then cloned', async () => {
  const dir = await tempDir('signrun-org-order-');
  const cli = (...args: string[]) => runCli(args, { cwd: dir, env: sandboxEnv(sandbox) });
  await writeFile(
    path.join(dir, 'org.yaml'),
    `version: 1
job: org-order
accounts:
  - key: acme-at
    accountName: Acme Oesterreich
    organizationId: ${organizationId}
    countryCode: AT
    cloneOf: acme-ch
    admin: { email: admin@acme.at, firstName: Ada, lastName: Huber }
  - key: acme-ch
    accountName: Acme Schweiz
    organizationId: ${organizationId}
    countryCode: CH
    admin: { email: admin@acme.ch, firstName: Ada, lastName: Meier }
`,
  );
  const plan = await cli('plan', 'org.yaml', '--out', 'out');
  expect(plan.code, plan.stderr).toBe(0);
  const lines = plan.stdout.split('\n');
  const source = lines.findIndex((l) => l.includes('org-order/acme-ch'));
  const clone = lines.findIndex((l) => l.includes('org-order/acme-at'));
  expect(lines[source]).toMatch(/create account \(through organisation/);
  expect(lines[clone]).toMatch(/clone account \(of acme-ch\)/);
  expect(source).toBeLessThan(clone);

  const run = await cli('run', 'org.yaml', '--out', 'out', '--concurrency', '1');
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  expect(report.accounts.map((a) => [a.key, a.outcome])).toEqual([
    ['acme-ch', 'created'],
    ['acme-at', 'created'],
  ]);
  expect(report.api.byOperation['createSubAccount']).toBe(1);
  expect(report.api.byOperation['cloneAccount']).toBe(1);
  const db = (sandbox.app as unknown as { sandbox: { db: { prepare(s: string): { get(): unknown } } } }).sandbox.db;
  const work = db
    .prepare("SELECT source_account_id AS source FROM asset_group_works WHERE work_type = 'AccountAssetClone'")
    .get() as { source: string };
  expect(work.source).toBe(report.accounts[0]!.accountId);
}, 180_000);
