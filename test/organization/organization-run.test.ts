import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { workDelayMs } from './work-delay.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * Issue 34, "Done when": from an empty sandbox the worked example
 * (examples/organization.yaml) creates Acme France from the organisation's
 * plan item and clones Acme Deutschland from it, with settings, a Finance
 * group and 52 users (50 from a CSV, in groups) in one `run`; a second `run` makes no write
 * call; a setting changed behind signrun's back shows as "changed outside"
 * in `plan` and is put back by `run`; 1,000 users go in through one bulk
 * import in at most 10 calls, each rejected row named at its CSV line. The
 * real CLI (in-process) against a real sandbox over HTTP.
 */
let sandbox: RunningSandbox;
const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, workDelayMs });
});
afterAll(async () => {
  await sandbox?.close();
});

/** Calls that change what the organisation or an account holds (the sandbox's key registration is its login, not a write). */
const writes =
  /^(createSubAccount|cloneAccount|importAccountSettings|importUsers|addAccountUser|addOrganizationUser|create|update|delete|add|put)/i;

interface Db {
  prepare(sql: string): {
    get(...a: unknown[]): unknown;
    run(...a: unknown[]): unknown;
    all(...a: unknown[]): unknown[];
  };
}
const db = () => (sandbox.app as unknown as { sandbox: { db: Db } }).sandbox.db;
/** The emails of the members of an account's group, sorted. */
const membersOf = (accountId: string, group: string) =>
  (
    db()
      .prepare(
        'SELECT u.email AS email FROM group_members gm JOIN user_groups g ON g.id = gm.group_id JOIN users u ON u.id = gm.user_id WHERE g.account_id = ? AND g.name = ? ORDER BY u.email',
      )
      .all(accountId, group) as Array<{ email: string }>
  ).map((r) => r.email);
const settingOf = (accountId: string, name: string) =>
  (
    db().prepare('SELECT value FROM account_settings WHERE account_id = ? AND name = ?').get(accountId, name) as
      { value: string } | undefined
  )?.value;

describe('an organisation kept as code (examples/organization.yaml)', () => {
  it('creates one subsidiary and clones the other with settings and users in one run; then nothing; drift put back', async () => {
    const dir = await tempDir('signrun-org-');
    await cp(path.join(repoRoot, 'examples/organization.yaml'), path.join(dir, 'organization.yaml'));
    await cp(path.join(repoRoot, 'examples/data'), path.join(dir, 'data'), { recursive: true });
    const env = { ...sandboxEnv(sandbox), DOCUSIGN_ORGANIZATION_ID: organizationId };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const out = path.join(dir, 'out');

    const first = await cli('plan', 'organization.yaml', '--out', 'out');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/create account \(through organisation/);
    expect(first.stdout).toMatch(/clone account \(of acme-fr\)/);

    const run = await cli('run', 'organization.yaml', '--out', 'out');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    let report = await readReport(out);
    const [fr, de] = report.accounts;
    expect([fr!.key, fr!.outcome, de!.key, de!.outcome]).toEqual(['acme-fr', 'created', 'acme-de', 'created']);
    expect(fr!.accountId).not.toBe(de!.accountId);
    expect(report.api.byOperation['createSubAccount']).toBe(1);
    expect(report.api.byOperation['cloneAccount']).toBe(1);
    for (const account of [fr!, de!]) {
      const contents = account.contents ?? [];
      expect(contents.filter((c) => c.kind === 'setting').map((c) => c.outcome)).toEqual(['created', 'created']);
      expect(contents.filter((c) => c.kind === 'organizationUser' && c.outcome === 'created')).toHaveLength(27);
      // Its Finance group, kept through the organisation (the clone may have brought its source's already).
      const finance = contents.filter((c) => c.kind === 'group');
      expect(finance.map((c) => c.name)).toEqual(['Finance']);
      expect(account === fr ? ['created'] : ['created', 'up-to-date']).toContain(finance[0]!.outcome);
      expect(membersOf(account.accountId!, 'Finance')).toEqual(['controller@acme.example', 'treasurer@acme.example']);
    }
    // The organisation has them: the clone's settings are the file's, not its source's; users in their groups.
    expect(settingOf(fr!.accountId!, 'allowBulkSend')).toBe('true');
    expect(settingOf(de!.accountId!, 'allowBulkSend')).toBe('false');
    const admins = db()
      .prepare(
        "SELECT COUNT(*) AS n FROM group_members gm JOIN user_groups g ON g.id = gm.group_id WHERE g.account_id = ? AND g.name = 'Administrators'",
      )
      .get(de!.accountId!) as { n: number } | undefined;
    expect(admins?.n ?? 0).toBeGreaterThan(1);
    const accountJson = JSON.parse(
      await readFile(path.join(out, 'organization-acme/acme-de/account.json'), 'utf8'),
    ) as {
      accountId: string;
      state: string;
    };
    expect(accountJson).toMatchObject({ accountId: de!.accountId, state: 'present' });

    // A second run: no write call.
    const again = await cli('run', 'organization.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    report = await readReport(out);
    expect(report.accounts.map((a) => a.outcome)).toEqual(['up-to-date', 'up-to-date']);
    expect(report.accounts.flatMap((a) => a.contents ?? []).every((c) => c.outcome === 'up-to-date')).toBe(true);
    expect(Object.keys(report.api.byOperation).filter((op) => writes.test(op))).toEqual([]);
    expect(report.accounts.flatMap((a) => a.contents ?? []).filter((c) => c.kind === 'group')).toHaveLength(2);

    // Behind signrun's back: a setting of Acme France changed in the organisation.
    db()
      .prepare(
        "UPDATE account_settings SET value = 'false' WHERE account_id = ? AND name = 'enableSequentialSigningAPI'",
      )
      .run(fr!.accountId!);
    const drift = await cli('plan', 'organization.yaml', '--out', 'out');
    expect(drift.code, drift.stderr).toBe(0);
    expect(drift.stdout).toMatch(/changed outside/);
    expect(drift.stdout).toMatch(/enableSequentialSigningAPI: "false" → "true"/);
    // A setting's id is its name: named once on its line.
    expect(drift.stdout).toMatch(/changed outside +setting enableSequentialSigningAPI\n/);
    const putBack = await cli('run', 'organization.yaml', '--out', 'out');
    expect(putBack.code, putBack.stdout + putBack.stderr).toBe(0);
    report = await readReport(out);
    const setting = report.accounts[0]!.contents?.find((c) => c.name === 'enableSequentialSigningAPI');
    expect(setting).toMatchObject({ outcome: 'updated', outside: true });
    expect(settingOf(fr!.accountId!, 'enableSequentialSigningAPI')).toBe('true');
  }, 240_000);

  // 300 users (issue 38; 1,000 before): 30 times the calls allowed, and the users' calls are the same 8 for
  // 200, 300 or 1,000 (`node bench/organization/bulk-users.mjs --users 1000`, which keeps the 1,000).
  it('300 users go in through one bulk import in at most 10 calls, each rejected row named at its CSV line', async () => {
    const dir = await tempDir('signrun-org-bulk-');
    const rows = ['email,firstName,lastName,account,permissionProfile'];
    for (let i = 0; i < 300; i++)
      rows.push(
        `user${i}@bulk.example,User,N${i},bulk,${i === 120 || i === 233 ? 'No Such Profile' : 'DocuSign Sender'}`,
      );
    await writeFile(path.join(dir, 'users.csv'), `${rows.join('\n')}\n`);
    await writeFile(
      path.join(dir, 'bulk.yaml'),
      `version: 1
job: org-bulk
accounts:
  - key: bulk
    accountName: Bulk GmbH
    organizationId: ${organizationId}
    admin: { email: admin@bulk.example }
organization:
  id: ${organizationId}
  usersCsv: users.csv
`,
    );
    const env = sandboxEnv(sandbox);
    const result = await runCli(['run', 'bulk.yaml', '--out', 'out'], { cwd: dir, env });
    expect(result.code).toBe(1);
    const report = await readReport(path.join(dir, 'out'));
    const users = report.accounts[0]!.contents!.filter((c) => c.kind === 'organizationUser');
    expect(users.filter((c) => c.outcome === 'created')).toHaveLength(298);
    const rejected = users.filter((c) => c.outcome === 'failed');
    expect(rejected.map((c) => c.name)).toEqual(['user120@bulk.example', 'user233@bulk.example']);
    // Named at the job's CSV line (the header is line 1) and the import's.
    expect(rejected[0]!.error?.message).toMatch(/users\.csv:122/);
    expect(rejected[1]!.error?.message).toMatch(/users\.csv:235/);
    expect(rejected[0]!.error?.message).toMatch(/line 122 of the import CSV/);
    const userCalls = ['importUsers', 'userImport', 'userImportResults', 'organizationUsers', 'addAccountUser'].reduce(
      (n, op) => n + (report.api.byOperation[op] ?? 0),
      0,
    );
    expect(report.api.byOperation['importUsers']).toBe(1);
    expect(userCalls).toBeLessThanOrEqual(10);
  }, 240_000);
});
