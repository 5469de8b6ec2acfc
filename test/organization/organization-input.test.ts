import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { accountSettingNames } from '../../src/envelope/account-setting-names.js';

// Issue 34: bad input of an organisation gets a coded error at its line
// before any call — a cloneOf naming no account, an unknown setting name, a
// user assigned to an account not in the organisation (YAML and CSV line).

const work = join(repoRoot, `test/.tmp/organization-input-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function jobFolder(yaml: string, csv?: string): string {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'org.yaml'), yaml);
  if (csv) writeFileSync(join(work, 'users.csv'), csv);
  return work;
}

const accounts = `version: 1
job: org
accounts:
  - key: acme-fr
    accountName: Acme France
    organizationId: org-1
    admin: { email: admin@acme.fr }
    settings: { enableSequentialSigningAPI: "true" }
  - key: acme-de
    accountName: Acme Deutschland
    organizationId: org-1
    admin: { email: admin@acme.de }
`;

async function errors(yaml: string, csv?: string) {
  const folder = jobFolder(yaml, csv);
  // `run` against the in-process sandbox: refused before any call (exit 2, nothing written).
  const result = await runCli(['run', folder, '--out', join(folder, 'out')], { cwd: folder });
  return result;
}

describe('organisation input', () => {
  it('the settings names are those of the Swagger (accountSettingsInformation)', () => {
    const swagger = JSON.parse(
      readFileSync(join(repoRoot, 'test/fixtures/docusign/esignature.rest.swagger-v2.1.json'), 'utf8'),
    ) as { definitions: Record<string, { properties: Record<string, { type?: string }> }> };
    const properties = swagger.definitions['accountSettingsInformation']!.properties;
    const names = Object.keys(properties)
      .filter((n) => !n.endsWith('Metadata') && properties[n]!.type === 'string')
      .sort();
    expect([...accountSettingNames]).toEqual(names);
  });

  it('a valid organisation loads', async () => {
    const folder = jobFolder(accounts + '    cloneOf: acme-fr\n');
    const result = await runCli(['validate', folder], { cwd: folder });
    expect(result.stderr + result.stdout).not.toMatch(/SR_/);
    expect(result.code).toBe(0);
  });

  it('cloneOf naming no account: SR_ACCOUNT_CLONE_UNKNOWN at its line, before any call', async () => {
    const result = await errors(accounts + '    cloneOf: acme-it\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/SR_ACCOUNT_CLONE_UNKNOWN/);
    expect(result.stderr).toMatch(/org\.yaml:13/);
    expect(result.stderr).toMatch(/acme-it/);
  });

  it('cloneOf in a circle: SR_ACCOUNT_CLONE_CYCLE at each entry, before any call', async () => {
    const result = await errors(
      accounts.replace('    settings:', '    cloneOf: acme-de\n    settings:') + '    cloneOf: acme-fr\n',
    );
    expect(result.code).toBe(2);
    const lines = result.stderr.split('\n').filter((l) => /SR_ACCOUNT_CLONE_CYCLE/.test(l));
    expect(lines).toHaveLength(2);
    expect(result.stderr).toMatch(/org\.yaml:8/);
    expect(result.stderr).toMatch(/org\.yaml:14/);
    expect(result.stderr).toMatch(/acme-fr → acme-de → acme-fr/);
  });

  it("an organisation's group with a permission profile: SR_ORG_GROUP_UNSUPPORTED at its field; state on a group is refused", async () => {
    const withGroups = `${accounts}    groups:
      - groupName: Finance
      - groupName: Legal
        permissionProfileName: DocuSign Sender
`;
    const folder = jobFolder(withGroups);
    const validated = await runCli(['validate', folder], { cwd: folder });
    expect(validated.code).toBe(2);
    expect(validated.stdout + validated.stderr).toMatch(/SR_ORG_GROUP_UNSUPPORTED/);
    expect(validated.stdout + validated.stderr).toMatch(/org\.yaml:16/);
    expect(validated.stdout + validated.stderr).toMatch(/group "Legal" .*permissionProfileName "DocuSign Sender"/);
    expect(validated.stdout + validated.stderr).not.toMatch(/Finance/);

    const absent = jobFolder(`${accounts}    groups:
      - groupName: Finance
        state: absent
`);
    const refused = await runCli(['validate', absent], { cwd: absent });
    expect(refused.code).toBe(2);
    expect(refused.stdout + refused.stderr).toMatch(/SR_SCHEMA/);
    expect(refused.stdout + refused.stderr).toMatch(/org\.yaml:15/);
    expect(refused.stdout + refused.stderr).toMatch(/state/);
  });

  // The organisation finds an account by its name, ignoring case: two such entries would both adopt one account.
  it('two entries of one organisation whose accountName differ only in case: SR_ACCOUNT_NAME_DUPLICATE at the second, before any call', async () => {
    const result = await errors(accounts.replace('Acme Deutschland', 'ACME france'));
    expect(result.code).toBe(2);
    const lines = result.stderr.split('\n').filter((l) => /SR_ACCOUNT_NAME_DUPLICATE/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^org\.yaml:10:18 /);
    expect(lines[0]).toMatch(/"ACME france" is also entry acme-fr's \("Acme France"\)/);
    expect(result.stdout).not.toMatch(/^Target:/m);
    // Another organisation may have an account of that name.
    const elsewhere = jobFolder(
      accounts.replace('Acme Deutschland', 'ACME france').replace(/org-1\n(?![\s\S]*org-1)/, 'org-2\n'),
    );
    const validated = await runCli(['validate', elsewhere], { cwd: elsewhere });
    expect(validated.stdout + validated.stderr).not.toMatch(/SR_/);
    expect(validated.code).toBe(0);
  });

  it('an unknown setting name: SR_ACCOUNT_SETTING_UNKNOWN with the nearest name', async () => {
    const result = await errors(accounts.replace('enableSequentialSigningAPI', 'enableSequentialSigningApi'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/SR_ACCOUNT_SETTING_UNKNOWN/);
    expect(result.stderr).toMatch(/did you mean "enableSequentialSigningAPI"/);
    expect(result.stderr).toMatch(/org\.yaml:8/);
  });

  it('a user assigned to an account not in the organisation: SR_ORG_USER_ACCOUNT_UNKNOWN at the YAML line and the CSV line', async () => {
    const yaml =
      accounts +
      `organization:
  id: org-1
  usersCsv: users.csv
  users:
    - email: ann@acme.fr
      accounts: [{ account: acme-fr }, { account: acme-uk }]
`;
    const csv = 'email,firstName,lastName,account\nbob@acme.de,Bob,Keller,acme-de\ncid@acme.de,Cid,Marx,acme-at\n';
    const result = await errors(yaml, csv);
    expect(result.code).toBe(2);
    const lines = result.stderr.split('\n').filter((l) => /SR_ORG_USER_ACCOUNT_UNKNOWN/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(result.stderr).toMatch(/users\.csv:3/);
    expect(result.stderr).toMatch(/acme-at/);
    expect(result.stderr).toMatch(/acme-uk/);
    expect(result.stderr).toMatch(/org\.yaml:18/);
  });
});
