import { describe, expect, it } from 'vitest';
import { accountEntryOf, type AccountReading } from '../../src/runner/import/import-account-entry.js';
import { choose } from '../../src/runner/import/import-account-login.js';
import { SignrunError } from '../../src/errors/signrun-error.js';

// What `signrun import account` writes of what an account answers (pure):
// DocuSign's own profiles and groups and closed users left out, one of each
// name as plan finds it, what a job file cannot hold said instead of written,
// passwords only as ${env.*}.

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
const gif = Buffer.from('GIF89a…', 'latin1');

const reading = (over: Partial<AccountReading> = {}): AccountReading => ({
  accountId: 'acc-1',
  accountName: 'Acme',
  planId: 'plan-9',
  userId: 'u-admin',
  found: {
    profiles: [
      {
        permissionProfileId: '1',
        permissionProfileName: 'Account Administrator',
        settings: { allowApiAccess: 'true' },
      },
      { permissionProfileId: '2', permissionProfileName: 'DocuSign Sender' },
      { permissionProfileId: '3', permissionProfileName: 'DocuSign Viewer' },
      {
        permissionProfileId: '10',
        permissionProfileName: 'Legal',
        settings: { allowBulkSending: 'false', allowedTemplateAccess: 'share', notASetting: 'x', allowVaulting: '' },
      },
      { permissionProfileId: '11', permissionProfileName: 'legal' },
    ],
    groups: [
      { groupId: '1', groupName: 'Administrators', groupType: 'adminGroup' },
      { groupId: '2', groupName: 'Everyone', groupType: 'everyoneGroup' },
      { groupId: '5', groupName: 'Legal team', groupType: 'customGroup', permissionProfileId: '10' },
    ],
    users: [
      {
        userId: 'u-admin',
        userName: 'Ada Admin',
        email: 'ada@acme.test',
        permissionProfileName: 'Account Administrator',
        groupList: [{ groupName: 'Everyone' }, { groupName: 'Administrators' }],
      },
      {
        userId: 'u-2',
        userName: 'Lea',
        email: 'lea@acme.test',
        permissionProfileName: 'Legal',
        groupList: [{ groupName: 'Everyone' }, { groupName: 'Legal team' }],
      },
      { userId: 'u-3', userName: 'Sam', email: 'sam@acme.test', userStatus: 'Closed' },
      { userId: 'u-4', email: 'noname@acme.test' },
    ],
    brands: [
      {
        brandId: 'b-2',
        brandName: 'Acme',
        colors: [{ name: 'headerBackground', value: 'blue' }],
        logos: { primary: 'x', email: 'y' },
        logoDigests: {},
        logoBytes: { primary: Buffer.from('not an image'), email: gif },
      },
      {
        brandId: 'b-1',
        brandName: 'ACME',
        isSendingDefault: 'true',
        logos: { primary: 'x' },
        logoDigests: {},
        logoBytes: { primary: png },
      },
    ],
    connect: [
      {
        connectId: '7',
        name: 'Hooks',
        urlToPublishTo: 'https://h.test',
        allUsers: 'true',
        userName: 'u',
        envelopeEvents: [{ envelopeEventStatusCode: 'sent' }],
      },
      { connectId: '8', name: 'Hooks!', urlToPublishTo: 'https://h2.test', userName: 'v', includeHMAC: true },
    ],
  },
  ...over,
});

const options = { key: 'acme', job: 'acme', passwordVariable: 'SIGNRUN_ACCOUNT_PASSWORD_ACME', passwordPurpose: 'p' };

describe('accountEntryOf', () => {
  it('leaves out what DocuSign gives every account, closed users, and the second of a name', () => {
    const { entry, leftOut } = accountEntryOf(reading(), options);
    expect(entry).toMatchObject({
      key: 'acme',
      accountName: 'Acme',
      accountId: 'acc-1',
      userId: 'u-admin',
      initialUser: { email: 'ada@acme.test', userName: 'Ada Admin', password: '${env.SIGNRUN_ACCOUNT_PASSWORD_ACME}' },
      planInformation: { planId: 'plan-9' },
    });
    // Only settings DocuSign knows, "true"/"false" as booleans; the second "legal" (same name, ignoring case) left out.
    expect(entry.permissionProfiles).toEqual([
      { permissionProfileName: 'Legal', settings: { allowBulkSending: false, allowedTemplateAccess: 'share' } },
    ]);
    expect(entry.groups).toEqual([{ groupName: 'Legal team', permissionProfileName: 'Legal' }]);
    expect(entry.users).toEqual([
      {
        userName: 'Ada Admin',
        email: 'ada@acme.test',
        permissionProfileName: 'Account Administrator',
        groups: ['Administrators'],
      },
      { userName: 'Lea', email: 'lea@acme.test', permissionProfileName: 'Legal', groups: ['Legal team'] },
    ]);
    expect(leftOut.join('\n')).toContain('permission profile "legal" (11)');
    expect(leftOut.join('\n')).toContain('user noname@acme.test');
    expect(leftOut.join('\n')).not.toContain('sam@acme.test');
  });

  it('writes the brand plan finds (smallest brandId) with its image logos; what a file cannot hold is said', () => {
    const { entry, files, leftOut } = accountEntryOf(reading(), options);
    expect(entry.brands).toEqual([
      { brandName: 'ACME', logos: { primary: 'brands/acme/logo-primary.png' }, isSendingDefault: true },
    ]);
    expect(files).toEqual([{ file: 'brands/acme/logo-primary.png', bytes: png }]);
    expect(leftOut.join('\n')).toContain('brand "Acme" (b-2): a second one of that name');
  });

  it('names a variable for each listener password, unique, and never a value', () => {
    const { entry, variables, leftOut, comments } = accountEntryOf(reading(), options);
    expect(entry.connect).toEqual([
      {
        name: 'Hooks',
        urlToPublishTo: 'https://h.test',
        allUsers: true,
        userName: 'u',
        password: '${env.SIGNRUN_CONNECT_PASSWORD_HOOKS}',
      },
      {
        name: 'Hooks!',
        urlToPublishTo: 'https://h2.test',
        includeHMAC: true,
        userName: 'v',
        password: '${env.SIGNRUN_CONNECT_PASSWORD_HOOKS_2}',
      },
    ]);
    expect(variables.map((v) => v.name)).toEqual([
      'SIGNRUN_ACCOUNT_PASSWORD_ACME',
      'SIGNRUN_CONNECT_PASSWORD_HOOKS',
      'SIGNRUN_CONNECT_PASSWORD_HOOKS_2',
    ]);
    expect(comments.map((c) => c.path)).toEqual([
      ['initialUser', 'password'],
      ['connect', 0, 'password'],
      ['connect', 1, 'password'],
    ]);
    expect(leftOut.join('\n')).toContain('Connect configuration "Hooks": envelopeEvents');
  });

  it('asks for PLAN_ID when the service does not say the plan', () => {
    const { entry, variables } = accountEntryOf(reading({ planId: undefined }), options);
    expect(entry.planInformation).toEqual({ planId: '${env.PLAN_ID}' });
    expect(variables.map((v) => v.name)).toContain('PLAN_ID');
  });
});

describe('choose (the account to import)', () => {
  const accounts = [
    { accountId: 'a1', name: 'Acme', isDefault: true },
    { accountId: 'a2', name: 'Twin', isDefault: false },
    { accountId: 'a3', name: 'Twin', isDefault: false },
  ];
  it('by id, then by exact name', () => {
    expect(choose(accounts, 'a3').accountId).toBe('a3');
    expect(choose(accounts, 'Acme').accountId).toBe('a1');
  });
  it('several of a name, or none, is a coded error naming the accounts', () => {
    const codeOf = (reference: string) => {
      try {
        choose(accounts, reference);
      } catch (error) {
        return error instanceof SignrunError ? [error.code, error.message] : [];
      }
      return [];
    };
    expect(codeOf('Twin')[0]).toBe('SR_IMPORT_ACCOUNT_AMBIGUOUS');
    const [code, message] = codeOf('acme');
    expect(code).toBe('SR_IMPORT_ACCOUNT_NOT_FOUND');
    expect(message).toContain('"Acme" (a1, default)');
    // The command it gives can be pasted into a shell as it is.
    expect(codeOf('Acme GmbH')[1]).toContain("then: npx signrun import account 'Acme GmbH'");
    expect(codeOf("O'Brien Ltd")[1]).toContain(`then: npx signrun import account 'O'\\''Brien Ltd'`);
    expect(codeOf('a-9')[1]).toContain('then: npx signrun import account a-9');
  });
});
