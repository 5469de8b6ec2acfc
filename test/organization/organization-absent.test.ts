import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { workDelayMs } from './work-delay.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * Issue 34: `state: absent` on an account of an organisation closes it as
 * DocuSign does — eSignature's DELETE /v2.1/accounts/{accountId} with the
 * run's token, the organisation's administrator — exactly once: `plan` shows
 * the close and its one call; `run` closes it; the organisation's asset-group
 * accounts no longer list it, so a run again (or a run after one killed
 * between the close and its journal) makes no call; `import account` of it
 * says it is closed (SR_IMPORT_ACCOUNT_CLOSED). The real CLI (in-process)
 * against a real sandbox.
 */
let sandbox: RunningSandbox;
const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, workDelayMs });
});
afterAll(async () => {
  await sandbox?.close();
});

interface Db {
  prepare(sql: string): { get(...a: unknown[]): unknown; run(...a: unknown[]): unknown };
}
const db = () => (sandbox.app as unknown as { sandbox: { db: Db } }).sandbox.db;
const statusOf = (accountId: string) =>
  (db().prepare('SELECT status FROM accounts WHERE id = ?').get(accountId) as { status: string }).status;

const jobFile = (state: 'present' | 'absent', names: string[]) => `version: 1
job: org-absent
accounts:
${names
  .map(
    (name, i) => `  - key: acme-${i}
    state: ${state}
    accountName: ${name}
    organizationId: ${organizationId}
    countryCode: NL
    admin: { email: admin${i}@acme.nl, firstName: Ada, lastName: Visser }
`,
  )
  .join('')}`;

describe("state: absent on an organisation's account", () => {
  it('plan shows the close and its call; run closes it once; again nothing; import says it is closed', async () => {
    const dir = await tempDir('signrun-org-absent-');
    const env = sandboxEnv(sandbox);
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    await writeFile(path.join(dir, 'org.yaml'), jobFile('present', ['Acme Nederland', 'Acme Belgie']));
    const created = await cli('run', 'org.yaml', '--out', 'out');
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const [nl, be] = (await readReport(path.join(dir, 'out'))).accounts;
    expect([nl!.outcome, be!.outcome]).toEqual(['created', 'created']);
    // An organisation's accounts are active at once: nothing awaits an activation.
    expect(created.stdout).toMatch(/account\(s\): 2 created[;.]/);
    expect(created.stdout).not.toMatch(/awaiting activation/);

    await writeFile(path.join(dir, 'org.yaml'), jobFile('absent', ['Acme Nederland', 'Acme Belgie']));
    // A run killed after closing Acme Belgie, before its journal said so: the organisation closed it.
    db().prepare("UPDATE accounts SET status = 'deleted' WHERE id = ?").run(be!.accountId);

    const plan = await cli('plan', 'org.yaml', '--out', 'out');
    expect(plan.code, plan.stderr).toBe(0);
    const closeLine = plan.stdout.split('\n').find((l) => l.includes('org-absent/acme-0'))!;
    expect(closeLine).toContain(`close account (DELETE /v2.1/accounts/${nl!.accountId}`);
    expect(closeLine).toMatch(/ 1 call\(s\)/);
    const absentLine = plan.stdout.split('\n').find((l) => l.includes('org-absent/acme-1'))!;
    expect(absentLine).toMatch(/already-absent account .* 0 call\(s\)/);

    const run = await cli('run', 'org.yaml', '--out', 'out');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'out'));
    expect(run.stdout).toMatch(/account\(s\): 1 deleted, 1 already absent/);
    expect(report.accounts.map((a) => [a.key, a.outcome])).toEqual([
      ['acme-0', 'deleted'],
      ['acme-1', 'already-absent'],
    ]);
    expect(report.api.byOperation['deleteAccount']).toBe(1);
    expect(statusOf(nl!.accountId!)).toBe('deleted');
    const record = JSON.parse(await readFile(path.join(dir, 'out/org-absent/acme-0/account.json'), 'utf8')) as {
      state: string;
      accountId: string;
    };
    expect(record).toMatchObject({ state: 'deleted', accountId: nl!.accountId });

    const again = await cli('run', 'org.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const second = await readReport(path.join(dir, 'out'));
    expect(second.accounts.map((a) => a.outcome)).toEqual(['already-absent', 'already-absent']);
    expect(second.api.byOperation['deleteAccount'] ?? 0).toBe(0);

    for (const reference of ['Acme Nederland', nl!.accountId!]) {
      const imported = await cli('import', 'account', reference, '--organization', organizationId, '--out', 'x.yaml');
      expect(imported.code).toBe(2);
      expect(imported.stderr).toMatch(/SR_IMPORT_ACCOUNT_CLOSED/);
      expect(imported.stderr).toContain(nl!.accountId!);
    }
  }, 240_000);
});
