import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { sandboxFetch } from '../helpers/injected-sandbox.js';
import { seedUserHeaders } from '../helpers/jwt.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// DocuSign's Admin API in the sandbox (src/sandbox/admin): the seeded
// organisation, its plan items and accounts, account creation and cloning
// as asynchronous work driven by the sandbox's clock, settings export/import.

let admin: AdminSandbox;
const org = defaultSeedIds.organizationId;
const main = defaultSeedIds.accountId;

beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

/** The eSignature API as the seed user (to give the main account contents a clone must copy). */
async function esign(method: string, path: string, body: unknown) {
  const response = await sandboxFetch(`${admin.sandbox.origin}/restapi/v2.1/accounts/${main}${path}`, {
    method,
    headers: { ...seedUserHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response.json();
}

describe('the seeded organisation', () => {
  it('GET /v2/organizations lists Sandbox Org, holding the main account, for its administrator', async () => {
    const r = await admin.call('GET', '/v2/organizations');
    expect(r.status, r.text).toBe(200);
    expect(r.json.organizations).toHaveLength(1);
    expect(r.json.organizations[0]).toMatchObject({
      id: org,
      name: 'Sandbox Org',
      default_account_id: main,
      accounts: [{ id: main, name: 'Sandbox Corp', external_account_id: expect.any(Number), site_id: 1 }],
    });
  });

  it('has one plan item, for sandbox-plan, and its asset group holds the main account', async () => {
    const items = await admin.call('GET', `/v2/organizations/${org}/planItems`);
    expect(items.status, items.text).toBe(200);
    expect(items.json).toEqual([
      expect.objectContaining({
        plan_id: 'sandbox-plan',
        subscription_id: defaultSeedIds.subscriptionId,
        asset_group_id: defaultSeedIds.assetGroupId,
        associated_accounts_count: 1,
      }),
    ]);
    const accounts = await admin.call('GET', `/v2/organizations/${org}/assetGroups/accounts?compliant=true`);
    expect(accounts.json.assetGroupAccounts).toEqual([
      expect.objectContaining({ accountId: main, assetGroupId: defaultSeedIds.assetGroupId, compliant: true }),
    ]);
  });
});

describe('account creation from a plan item', () => {
  it('is Pending until its time on the clock has come, then the account is in the organisation', async () => {
    const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountCreate`, {
      body: {
        subscriptionDetails: { id: defaultSeedIds.subscriptionId, planId: 'sandbox-plan', modules: [] },
        targetAccount: {
          name: 'Acme Deutschland',
          countryCode: 'DE',
          admin: { email: 'admin@acme.de', firstName: 'Ada', lastName: 'Keller', locale: 'de' },
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      Success: true,
      AssetGroupWork: { Status: 'Pending', AssetGroupWorkType: 'AccountAssetCreate' },
    });
    const work = r.json.AssetGroupWork;
    const statusPath = `/v2/organizations/${org}/assetGroup/${work.AssetGroupId}/subAccountCreated/${work.AssetGroupWorkId}`;
    const before = await admin.call('GET', statusPath);
    expect(before.json).toMatchObject({ status: 'Pending', targetAccount: { name: 'Acme Deutschland' } });
    expect(before.json.targetAccount.id).toBeUndefined();

    admin.advance(1000);
    const after = await admin.call('GET', statusPath);
    expect(after.json).toMatchObject({
      status: 'Completed',
      assetGroupWorkType: 'AccountAssetCreate',
      targetAccount: {
        id: expect.any(String),
        name: 'Acme Deutschland',
        countryCode: 'DE',
        admin: { email: 'admin@acme.de' },
      },
      subscriptionDetails: { planId: 'sandbox-plan' },
    });
    const accounts = await admin.call('GET', `/v2/organizations/${org}/assetGroups/accounts`);
    expect(accounts.json.assetGroupAccounts.map((a: { accountName: string }) => a.accountName)).toContain(
      'Acme Deutschland',
    );
    const listed = await admin.call('GET', `/v2/organizations/${org}/subAccountsCreated`);
    expect(listed.json.assetGroupWorks.map((w: { assetGroupWorkId: string }) => w.assetGroupWorkId)).toContain(
      work.AssetGroupWorkId,
    );
    // The administrator is told where to choose a password.
    const outbox = admin.sandbox.app.sandbox.outbox.list({ to: 'admin@acme.de' });
    expect(outbox.map((m) => m.kind)).toEqual(['account-activation']);
    // Reading it again does not make a second account.
    await admin.call('GET', statusPath);
    expect(admin.sandbox.app.sandbox.outbox.list({ to: 'admin@acme.de' })).toHaveLength(1);
  });
});

describe('account clone', () => {
  it("copies the source's settings, permission profiles, groups and brands", async () => {
    await esign('POST', '/permission_profiles', {
      permissionProfileName: 'Clerks',
      settings: { canSendEnvelope: 'true' },
    });
    await esign('POST', '/groups', { groups: [{ groupName: 'Legal' }] });
    await esign('POST', '/brands', { brandName: 'Acme blue', brandCompany: 'Acme' });
    const imported = await admin.call('POST', `/v2/organizations/${org}/imports/account_settings`, {
      raw: { contentType: 'text/csv', payload: `setting,${main}\nenableSequentialSigningAPI,true\n` },
    });
    expect(imported.status, imported.text).toBe(200);
    admin.advance(1000);

    const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountClone`, {
      body: {
        sourceAccount: { id: main },
        targetAccount: {
          name: 'Acme France',
          countryCode: 'FR',
          admin: { email: 'admin@acme.fr', firstName: 'Léa', lastName: 'Martin' },
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      status: 'Pending',
      assetGroupWorkType: 'AccountAssetClone',
      sourceAccount: { id: main },
    });
    admin.advance(1000);
    const done = await admin.call(
      'GET',
      `/v2/organizations/${org}/assetGroups/${r.json.assetGroupId}/accountClones/${r.json.assetGroupWorkId}`,
    );
    expect(done.json).toMatchObject({
      status: 'Completed',
      targetAccount: { id: expect.any(String), name: 'Acme France' },
    });
    const target = done.json.targetAccount.id as string;
    const services = admin.sandbox.app.sandbox;
    expect(services.permissionProfiles.list(target).map((p) => p.name)).toContain('Clerks');
    expect(services.groups.list(target).map((g) => g.name)).toContain('Legal');
    const exported = await admin.call('POST', `/v2/organizations/${org}/exports/account_settings`, {
      body: { accounts: [{ account_id: target }] },
    });
    admin.advance(1000);
    const finished = await admin.call('GET', `/v2/organizations/${org}/exports/account_settings/${exported.json.id}`);
    expect(finished.json.status).toBe('completed');
    const csv = await admin.call('GET', new URL(finished.json.results[0].url).pathname.replace(/^\/management/, ''), {
      unchecked: true,
    });
    expect(csv.text).toBe(`setting,${target}\nenableSequentialSigningAPI,true\n`);
    const brands = services.db.prepare('SELECT name FROM brands WHERE account_id = ?').all(target);
    expect(brands).toEqual([{ name: 'Acme blue' }]);
  });
});

describe("DocuSign's errors", () => {
  it('a token without the scope is refused (401 unauthorized)', async () => {
    const token = await admin.token('signature organization_read');
    const r = await admin.call('GET', `/v2/organizations/${org}/planItems`, { token });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({
      error: 'unauthorized',
      error_description: expect.stringContaining('organization_sub_account_read'),
    });
  });

  it('an unknown organisation is not_found', async () => {
    const r = await admin.call('GET', '/v2/organizations/00000000-0000-0000-0000-000000000000/planItems');
    expect(r.status).toBe(404);
    expect(r.json.error).toBe('not_found');
  });

  it("a plan item that is not the organisation's is invalid_request, and nothing is queued", async () => {
    const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountCreate`, {
      body: {
        subscriptionDetails: { id: '11111111-2222-3333-4444-555555555555', planId: 'other-plan' },
        targetAccount: { name: 'X', admin: { email: 'x@example.com' } },
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_request');
    const listed = await admin.call('GET', `/v2/organizations/${org}/subAccountsCreated`);
    expect(
      listed.json.assetGroupWorks.map((w: { targetAccount: { name: string } }) => w.targetAccount.name),
    ).not.toContain('X');
  });

  it('a clone of an account outside the organisation is invalid_request', async () => {
    const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountClone`, {
      body: {
        sourceAccount: { id: '99999999-0000-0000-0000-000000000000' },
        targetAccount: { name: 'Y', admin: { email: 'y@example.com' } },
      },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('not an account of this organization'),
    });
  });
});
