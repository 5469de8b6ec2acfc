import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { workDelayMs } from './work-delay.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { pinnedImport } from '../helpers/pinned-import.js';

/**
 * Issue 34: `import account --organization` reads an account of the
 * organisation — one the worked example (examples/organization.yaml)
 * cloned — into an entry with its organizationId, its settings (the
 * organisation's settings export) and its groups; the written file validates and `plan` of
 * it says no change. The real CLI (in-process) against a real sandbox.
 */
let sandbox: RunningSandbox;
const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, workDelayMs });
});
afterAll(async () => {
  await sandbox?.close();
});

interface PlanJson {
  items: Array<{
    kind: string;
    decision: { action: string };
    contents?: { unread?: string; items: Array<{ kind: string; name: string; action: string }> };
  }>;
}

describe('import account --organization', () => {
  it("writes an organisation's account with organizationId and settings; it validates and plan says no change", async () => {
    const dir = await tempDir('signrun-org-import-');
    await cp(path.join(repoRoot, 'examples/organization.yaml'), path.join(dir, 'organization.yaml'));
    await cp(path.join(repoRoot, 'examples/data'), path.join(dir, 'data'), { recursive: true });
    const env = { ...sandboxEnv(sandbox), DOCUSIGN_ORGANIZATION_ID: organizationId };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const run = await cli('run', 'organization.yaml', '--out', 'out');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const de = (await readReport(path.join(dir, 'out'))).accounts.find((a) => a.key === 'acme-de')!;
    expect(de.accountId).toBeTruthy();

    // By name, as the organisation lists it.
    const imported = await cli(
      'import',
      'account',
      'Acme Deutschland',
      '--organization',
      organizationId,
      '--out',
      'imported/acme-de.yaml',
    );
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Imported account "Acme Deutschland" (${de.accountId})`);
    const text = await readFile(path.join(dir, 'imported/acme-de.yaml'), 'utf8');
    // What the import says and writes, byte for byte (ids numbered in order of appearance).
    await expect(
      await pinnedImport(path.join(dir, 'imported'), imported.stdout + imported.stderr, sandbox.rootUrl),
    ).toMatchFileSnapshot('pinned/organization-import.txt');
    expect(text).not.toContain('sandbox-password');
    const file = parse(text) as { job: string; accounts: Array<Record<string, unknown>> };
    expect(file.accounts).toHaveLength(1);
    expect(file.accounts[0]).toMatchObject({
      accountName: 'Acme Deutschland',
      accountId: de.accountId,
      organizationId,
      // The file's settings as the run set them (the clone's own, not its source's).
      settings: { enableSequentialSigningAPI: true, allowBulkSend: false },
      groups: [{ groupName: 'Finance' }],
    });

    const validated = await cli('validate', 'imported/acme-de.yaml');
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    const planned = await cli('plan', 'imported/acme-de.yaml', '--format', 'json');
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanJson;
    const account = plan.items.find((i) => i.kind === 'account')!;
    expect(account.decision.action).toBe('up-to-date');
    expect(account.contents?.unread).toBeUndefined();
    const settings = account.contents?.items.filter((i) => i.kind === 'setting') ?? [];
    expect(settings.map((s) => s.name)).toEqual(
      expect.arrayContaining(['allowBulkSend', 'enableSequentialSigningAPI']),
    );
    expect(account.contents?.items.filter((i) => i.kind === 'group').map((i) => i.name)).toEqual(['Finance']);
    expect(account.contents?.items.every((i) => i.action === 'up-to-date')).toBe(true);

    // An account the organisation does not have is refused, naming the ones it has.
    const unknown = await cli('import', 'account', 'Acme Nowhere', '--organization', organizationId, '--out', 'x.yaml');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/SR_IMPORT_ACCOUNT_NOT_FOUND/);
    expect(unknown.stderr).toContain('"Acme Deutschland"');
  }, 240_000);
});
