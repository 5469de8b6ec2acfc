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
