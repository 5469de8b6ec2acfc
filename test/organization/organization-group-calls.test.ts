import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { workDelayMs } from './work-delay.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * Issue 34: `plan`'s call estimate for an organisation's account's groups
 * (DocuSign's DS groups, made one by one through the Admin API, then one
 * listing to confirm them) is the calls `run` makes for them. The real CLI
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

const jobFile = (groups: string[]) => `version: 1
job: org-groups
accounts:
  - key: acme-lu
    accountName: Acme Luxembourg
    organizationId: ${organizationId}
    countryCode: LU
    admin: { email: admin@acme.lu, firstName: Ada, lastName: Weber }
${groups.length > 0 ? `    groups:\n${groups.map((g) => `      - groupName: ${g}\n`).join('')}` : ''}`;

it("plan's estimate for an organisation's groups is the calls the run makes", async () => {
  const dir = await tempDir('signrun-org-groups-');
  const cli = (...args: string[]) => runCli(args, { cwd: dir, env: sandboxEnv(sandbox) });
  await writeFile(path.join(dir, 'org.yaml'), jobFile([]));
  const created = await cli('run', 'org.yaml', '--out', 'out');
  expect(created.code, created.stdout + created.stderr).toBe(0);

  await writeFile(path.join(dir, 'org.yaml'), jobFile(['Legal', 'Tax', 'Finance']));
  const planned = await cli('plan', 'org.yaml', '--out', 'out', '--format', 'json');
  expect(planned.code, planned.stderr).toBe(0);
  const plan = JSON.parse(planned.stdout) as {
    totalApiCalls: number;
    items: Array<{ kind: string; apiCalls: number }>;
  };
  const item = plan.items.find((i) => i.kind === 'account')!;

  const run = await cli('run', 'org.yaml', '--out', 'out');
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  const account = report.accounts[0]!;
  expect(account.contents?.filter((c) => c.kind === 'group').map((c) => c.outcome)).toEqual([
    'created',
    'created',
    'created',
  ]);
  expect(report.api.byOperation['createDsGroup']).toBe(3);
  // Three creations and one listing that confirms them (the account's run calls besides: the plan's one read of its groups).
  expect(item.apiCalls).toBe(4);
  expect(account.apiCalls).toBe(item.apiCalls + 1);
  // The whole run: as many calls as the plan said (its logins, the organisation's record and the reads included).
  expect(report.api.calls).toBe(plan.totalApiCalls);
}, 180_000);
