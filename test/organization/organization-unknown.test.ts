import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * An organizationId the Admin API does not know for this login: `plan` says
 * so at the entry's line with the Admin API's own reason (its ErrorDetails,
 * `{error, error_description}`) and what to check. Before stop 51 it printed
 * "SR_HTTP_STATUS GET /management/v2/organizations/…/assetGroups/accounts
 * answered 404" alone: no file, no line, no reason.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

it('an unknown organizationId: plan names the entry, the reason the Admin API gave, and what to check', async () => {
  const dir = await tempDir('signrun-org-unknown-');
  await writeFile(
    path.join(dir, 'org.yaml'),
    `version: 1
job: org-unknown
accounts:
  - key: acme-be
    accountName: Acme Belgique
    organizationId: 11111111-2222-4333-8444-555555555555
    admin: { email: admin@acme.be }
`,
  );
  const plan = await runCli(['plan', 'org.yaml', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox) });
  expect(plan.code).toBe(1);
  expect(plan.stderr).toMatch(
    /org\.yaml:4:5 SR_HTTP_STATUS account org-unknown\/acme-be: organisation 11111111-2222-4333-8444-555555555555 \(its organizationId\) cannot be read/,
  );
  expect(plan.stderr).toMatch(
    /answered 404 not_found: Organization 11111111-2222-4333-8444-555555555555 was not found, or the user is not one of its administrators/,
  );
  expect(plan.stderr).toMatch(/Check organizationId/);
}, 60_000);

// Before stop 51, plan said "clone account (of <id>)" and run failed the account (exit 1); docs/job-files.md
// promises SR_ACCOUNT_CLONE_UNKNOWN before any call that changes anything.
it('cloneOf an accountId the organisation does not list: SR_ACCOUNT_CLONE_UNKNOWN from plan, and run asks for nothing', async () => {
  const dir = await tempDir('signrun-org-clone-unknown-');
  await writeFile(
    path.join(dir, 'org.yaml'),
    `version: 1
job: org-clone-unknown
accounts:
  - key: acme-lu
    accountName: Acme Luxembourg
    organizationId: 0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55
    cloneOf: 99999999-8888-4777-8666-555555555555
    admin: { email: admin@acme.lu }
`,
  );
  const cli = (...args: string[]) => runCli(args, { cwd: dir, env: sandboxEnv(sandbox) });
  const plan = await cli('plan', 'org.yaml', '--out', 'out');
  expect(plan.code).toBe(2);
  expect(plan.stdout).not.toMatch(/clone account/);
  expect(plan.stderr).toMatch(
    /org\.yaml:4:5 SR_ACCOUNT_CLONE_UNKNOWN account org-clone-unknown\/acme-lu: cloneOf 99999999-8888-4777-8666-555555555555 is not an account of organisation .*"Sandbox Corp" \(5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11\)/,
  );
  const run = await cli('run', 'org.yaml', '--out', 'out');
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/SR_ACCOUNT_CLONE_UNKNOWN/);
  const works = (
    (sandbox.app as unknown as { sandbox: { db: { prepare(sql: string): { get(): unknown } } } }).sandbox.db
      .prepare('SELECT COUNT(*) AS n FROM asset_group_works')
      .get() as { n: number }
  ).n;
  expect(works).toBe(0);
}, 60_000);
