import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { esignProduct } from '../../../src/sandbox/admin/products/routes.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// The Admin API's users in the sandbox: organisation users and their
// memberships, profiles by email and id, product permission profiles, DS groups.

let admin: AdminSandbox;
const org = defaultSeedIds.organizationId;
const main = defaultSeedIds.accountId;

beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

async function profiles(): Promise<Array<{ id: number; name: string }>> {
  const r = await admin.call('GET', `/v2/organizations/${org}/accounts/${main}/permissions`);
  expect(r.status, r.text).toBe(200);
  return r.json.permissions as Array<{ id: number; name: string }>;
}

describe('organisation users', () => {
  it('adds a user with a membership, its profile and group; lists and drills down by email and by id', async () => {
    const sender = (await profiles()).find((p) => p.name === 'DocuSign Sender')!;
    const group = await admin.call('POST', `/v2.1/organizations/${org}/accounts/${main}/dsgroups`, {
      body: { group_name: 'Sales', description: 'the sales team' },
    });
    expect(group.status, group.text).toBe(200);
    const created = await admin.call('POST', `/v2/organizations/${org}/users`, {
      body: {
        user_name: 'Ines Duval',
        first_name: 'Ines',
        last_name: 'Duval',
        email: 'ines@example.com',
        auto_activate_memberships: true,
        accounts: [{ id: main, permission_profile: { id: sender.id }, groups: [{ id: Number(group.json.group_id) }] }],
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({
      email: 'ines@example.com',
      accounts: [{ id: main, permission_profile: { id: sender.id, name: 'DocuSign Sender' } }],
    });
    expect(created.json.accounts[0].groups.map((g: { name: string }) => g.name)).toContain('Sales');

    const listed = await admin.call('GET', `/v2/organizations/${org}/users?email=ines@example.com`);
    expect(listed.json.users).toEqual([
      expect.objectContaining({ id: created.json.id, email: 'ines@example.com', user_status: 'active' }),
    ]);
    const byEmail = await admin.call('GET', `/v2.1/organizations/${org}/users/dsprofile?email=ines@example.com`);
    expect(byEmail.json.users[0]).toMatchObject({
      id: created.json.id,
      is_organization_admin: false,
      memberships: [{ account_id: main, status: 'active', permission_profile: { name: 'DocuSign Sender' } }],
    });
    const byId = await admin.call('GET', `/v2.1/organizations/${org}/users/${created.json.id}/dsprofile`);
    expect(byId.json).toEqual(byEmail.json);
    const drill = await admin.call('GET', `/v2/organizations/${org}/users/profile?email=sandbox@signrun.test`);
    expect(drill.json.users[0]).toMatchObject({ id: defaultSeedIds.userId, is_organization_admin: true });
  });

  it('refuses a second membership of the same account and an account outside the organisation', async () => {
    const again = await admin.call('POST', `/v2/organizations/${org}/users`, {
      body: { user_name: 'Ines', email: 'ines@example.com', accounts: [{ id: main }] },
    });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_request');
    const outside = await admin.call('POST', `/v2/organizations/${org}/users`, {
      body: { user_name: 'Z', email: 'z@example.com', accounts: [{ id: '12345678-0000-0000-0000-000000000000' }] },
    });
    expect(outside.status).toBe(400);
    expect(outside.json.error_description).toContain('not an account of this organization');
  });

  it('lists users changed since a date for an account (DocuSign eg005) and pages them', async () => {
    const r = await admin.call('GET', `/v2/organizations/${org}/users?account_id=${main}&take=1`);
    expect(r.json.paging).toMatchObject({ result_set_size: 1, total_set_size: 2 });
    expect(r.json.users[0].membership_id).toEqual(expect.any(String));
    const none = await admin.call(
      'GET',
      `/v2/organizations/${org}/users?account_id=${main}&last_modified_since=2099-01-01T00:00:00Z`,
    );
    expect(none.json.users).toEqual([]);
    const bare = await admin.call('GET', `/v2/organizations/${org}/users`);
    expect(bare.status).toBe(400);
  });
});

describe('product permission profiles', () => {
  it("lists the account's eSignature profiles; sets and removes a user's by email", async () => {
    const products = await admin.call(
      'GET',
      `/v2.1/organizations/${org}/accounts/${main}/products/permission_profiles`,
    );
    expect(products.json.product_permission_profiles).toEqual([
      expect.objectContaining({ product_id: esignProduct.id, product_name: 'ESign' }),
    ]);
    const viewer = products.json.product_permission_profiles[0].permission_profiles.find(
      (p: { permission_profile_name: string }) => p.permission_profile_name === 'DocuSign Viewer',
    );
    const set = await admin.call(
      'POST',
      `/v2.1/organizations/${org}/accounts/${main}/products/permission_profiles/users`,
      {
        body: {
          email: 'ines@example.com',
          product_permission_profiles: [
            { product_id: esignProduct.id, permission_profile_id: viewer.permission_profile_id },
          ],
        },
      },
    );
    expect(set.status, set.text).toBe(200);
    expect(set.json.product_permission_profiles[0].permission_profiles).toEqual([
      { permission_profile_id: viewer.permission_profile_id, permission_profile_name: 'DocuSign Viewer' },
    ]);
    const removed = await admin.call('DELETE', `/v2.1/organizations/${org}/accounts/${main}/products/users`, {
      body: { user_email: 'ines@example.com', product_ids: [esignProduct.id] },
    });
    expect(removed.json).toMatchObject({ is_success: true, user_product_results: { [esignProduct.id]: 'removed' } });
    const read = await admin.call(
      'GET',
      `/v2.1/organizations/${org}/accounts/${main}/products/permission_profiles/users?email=ines@example.com`,
    );
    expect(read.json.product_permission_profiles).toEqual([]);
  });
});

describe('DS groups', () => {
  it('adds and removes members of a group, and deletes it', async () => {
    const groups = await admin.call('GET', `/v2.1/organizations/${org}/accounts/${main}/dsgroups`);
    const sales = groups.json.ds_groups.find((g: { group_name: string }) => g.group_name === 'Sales');
    const path = `/v2.1/organizations/${org}/accounts/${main}/dsgroups/${sales.ds_group_id}`;
    const add = await admin.call('POST', `${path}/users`, { body: { user_ids: [defaultSeedIds.userId] } });
    expect(add.json.group_users.is_success).toBe(true);
    const members = await admin.call('GET', `${path}/users`);
    expect(members.json.group_users.users.map((u: { user_id: string }) => u.user_id).sort()).toHaveLength(2);
    const remove = await admin.call('DELETE', `${path}/users`, { body: { user_emails: ['ines@example.com'] } });
    expect(remove.json).toEqual({ is_success: true, failed_users: [] });
    const gone = await admin.call('DELETE', path);
    expect(gone.status).toBe(204);
    expect((await admin.call('GET', path)).status).toBe(404);
  });
});
