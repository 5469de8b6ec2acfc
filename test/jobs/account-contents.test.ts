import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';

// An account entry's permissionProfiles, groups and users are checked
// offline: each mistake at its line and field, with a stable code.

const dir = mkdtempSync(join(tmpdir(), 'signrun-account-contents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const head = `version: 1
job: subsidiaries
accounts:
  - key: acme
    accountName: Acme
    initialUser: { email: admin@acme.test, password: "\${env.ACME_PASSWORD}" }
    planInformation: { planId: p }
`;

async function load(body: string) {
  writeFileSync(join(dir, 'job.yaml'), head + body);
  return loadJobs(['job.yaml'], { cwd: dir, env: { ACME_PASSWORD: 'x', TEAM: 'Legal team' } });
}

describe('permission profiles, groups and users of an account entry', () => {
  it('resolves them: settings as DocuSign strings, ${env.*} substituted, built-in names allowed', async () => {
    const result = await load(`    permissionProfiles:
      - permissionProfileName: Legal
        settings: { allowEnvelopeSending: true, allowedTemplateAccess: share }
    groups:
      - { groupName: "\${env.TEAM}", permissionProfileName: Legal }
    users:
      - { userName: Lea, email: lea@acme.test, permissionProfileName: DocuSign Sender, groups: [Legal team, Administrators] }
      - { email: old@acme.test, state: absent }
`);
    expect(result.ok, JSON.stringify(!result.ok && result.errors)).toBe(true);
    if (!result.ok) return;
    const account = result.jobs[0]!.accounts[0]!;
    expect(account.permissionProfiles).toEqual([
      expect.objectContaining({
        permissionProfileName: 'Legal',
        settings: { allowEnvelopeSending: 'true', allowedTemplateAccess: 'share' },
      }),
    ]);
    expect(account.groups?.[0]).toMatchObject({ groupName: 'Legal team', permissionProfileName: 'Legal' });
    expect(account.users?.map((u) => [u.email, u.state, u.groups])).toEqual([
      ['lea@acme.test', 'present', ['Legal team', 'Administrators']],
      ['old@acme.test', 'absent', undefined],
    ]);
  });

  it('refuses duplicates, unknown profiles and groups, a present user without userName — each at its line', async () => {
    const result = await load(`    permissionProfiles:
      - permissionProfileName: Legal
      - permissionProfileName: LEGAL
      - permissionProfileName: Sales
        settings: { allowEnvelopeSending: true }
    groups:
      - { groupName: Legal team, permissionProfileName: Legall }
    users:
      - { userName: Lea, email: lea@acme.test, groups: [Legal teams] }
      - { userName: Lea again, email: LEA@acme.test }
      - { email: nameless@acme.test }
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.code, e.line, e.field])).toEqual(
      expect.arrayContaining([
        ['SR_ACCOUNT_NAME_DUPLICATE', 10, 'accounts[0].permissionProfiles[1].permissionProfileName'],
        ['SR_ACCOUNT_NAME_UNKNOWN', 14, 'accounts[0].groups[0].permissionProfileName'],
        ['SR_ACCOUNT_NAME_UNKNOWN', 16, 'accounts[0].users[0].groups[0]'],
        ['SR_ACCOUNT_NAME_DUPLICATE', 17, 'accounts[0].users[1].email'],
        ['SR_ACCOUNT_FIELD_MISSING', 18, 'accounts[0].users[2].email'],
      ]),
    );
    const unknownProfile = result.errors.find((e) => e.field === 'accounts[0].groups[0].permissionProfileName');
    expect(unknownProfile?.message).toContain('did you mean "Legal"?');
  });

  it("refuses a setting that is not one of DocuSign's accountRoleSettings, at its line", async () => {
    const result = await load(`    permissionProfiles:
      - permissionProfileName: Sales
        settings: { allowEnvelopeSendin: true }
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.code, e.line, e.field])).toEqual([
      ['SR_SCHEMA_UNKNOWN_PROPERTY', 10, 'accounts[0].permissionProfiles[0].settings.allowEnvelopeSendin'],
    ]);
    expect(result.errors[0]!.message).toContain('allowEnvelopeSending');
  });
});
