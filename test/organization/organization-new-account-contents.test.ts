import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { workDelayMs } from './work-delay.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';

/**
 * An organisation's account that the run creates, with what the
 * organisation keeps (settings) and what the account's own user keeps
 * (a permission profile, a user). `plan` says which is converged in the
 * same run and which waits for the invited administrator (before stop 51 it
 * said all of it "awaits its activation", as a distributor's account); `run`
 * converges the settings and leaves the rest not started (before, it read
 * the account's profiles as the organisation's administrator and failed the
 * account on DocuSign's 400 USER_LACKS_MEMBERSHIP).
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, workDelayMs });
});
afterAll(async () => {
  await sandbox?.close();
});

const entry = (key: string, name: string, own: boolean) => `  - key: ${key}
    accountName: ${name}
    organizationId: 0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55
    admin: { email: admin@${key}.example, firstName: Art, lastName: Vandelay }
    settings: { allowBulkSend: true }
${
  own
    ? `    permissionProfiles:
      - permissionProfileName: Importers
        settings: { allowEnvelopeSending: true }
    users:
      - { userName: Kramer, email: kramer@${key}.example, permissionProfileName: Importers }
`
    : ''
}`;

it("a new organisation account: its settings in the same run, its own user's contents when its administrator has signed in", async () => {
  const dir = await tempDir('signrun-org-new-');
  await writeFile(
    path.join(dir, 'org.yaml'),
    `version: 1\njob: org-new\naccounts:\n${entry('vandelay', 'Vandelay Industries', true)}${entry('kruger', 'Kruger Industrial', false)}`,
  );
  const cli = (...args: string[]) => runCli(args, { cwd: dir, env: sandboxEnv(sandbox) });

  const plan = await cli('plan', 'org.yaml', '--out', 'out');
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stdout).not.toMatch(/awaits its activation/);
  const [vandelay, kruger] = plan.stdout.split('create account (through organisation').slice(1);
  expect(vandelay).toMatch(
    /what the organisation keeps \(settings, groups, its users\) is converged once it exists, in the same run; its administrator is invited, and a run after they sign in converges the rest/,
  );
  expect(kruger).toMatch(/these are converged once it exists, in the same run\)/);

  const run = await cli('run', 'org.yaml', '--out', 'out');
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  expect(report.accounts.map((a) => [a.key, a.outcome, a.error?.code])).toEqual([
    ['vandelay', 'created', undefined],
    ['kruger', 'created', undefined],
  ]);
  expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.outcome])).toEqual([
    ['setting', 'created'],
    ['permissionProfile', 'not-started'],
    ['user', 'not-started'],
  ]);
  expect(report.accounts[1]!.contents?.map((c) => [c.kind, c.outcome])).toEqual([['setting', 'created']]);
  // Nothing was asked of the new account as a user who is not one of its members.
  expect(report.api.byOperation['listPermissionProfiles'] ?? 0).toBe(0);
}, 120_000);

// Before stop 51, an account of the organisation that exists and keeps its own user's contents (as `import account
// --organization` writes one when the credentials are a user of it) failed every run: SR_ACCOUNT_FAILED, "cannot
// be reached (no Admin API)", while plan said no change.
it("an existing organisation account with its own user's contents: run converges them as its user", async () => {
  const dir = await tempDir('signrun-org-own-');
  await writeFile(
    path.join(dir, 'org.yaml'),
    `version: 1
job: org-own
accounts:
  - key: corp
    accountName: Sandbox Corp
    accountId: 5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11
    userId: 7c1e9b2d-4a6f-4d3e-8b5a-2f0e6d9c4b22
    organizationId: 0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55
    initialUser: { email: sandbox@signrun.test, password: "\${env.CORP_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    settings: { allowBulkSend: true }
    users:
      - { userName: sandbox@signrun.test, email: sandbox@signrun.test, permissionProfileName: Account Administrator }
`,
  );
  const env = { ...sandboxEnv(sandbox), CORP_PASSWORD: 'sandbox-password' };
  const run = await runCli(['run', 'org.yaml', '--out', 'out'], { cwd: dir, env });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = await readReport(path.join(dir, 'out'));
  expect(report.accounts[0]).toMatchObject({ key: 'corp', outcome: 'up-to-date' });
  expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.name, c.outcome])).toEqual([
    ['setting', 'allowBulkSend', expect.stringMatching(/^(created|updated|up-to-date)$/)],
    ['user', 'sandbox@signrun.test', 'up-to-date'],
  ]);
}, 120_000);
