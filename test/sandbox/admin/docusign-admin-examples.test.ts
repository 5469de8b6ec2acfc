import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { sandboxFetch } from '../helpers/injected-sandbox.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// DocuSign's own Admin API examples (github.com/docusign/code-examples-node,
// lib/admin/examples, the 12 of 13 that need no CLM: eg002 adds a CLM user).
// Each request is written here as the example sends it through the
// docusign-admin SDK (its options become these query names, its bodies these
// JSON objects, its CSV the multipart `file.csv` part), in the app's order
// with what each takes from the one before; the sandbox must accept them
// unchanged and answer what the example reads. bench/fidelity runs the
// examples themselves (`--api admin`).

let admin: AdminSandbox;
const org = defaultSeedIds.organizationId;
const accountId = defaultSeedIds.accountId;
/** What one example leaves to the next (the app's session, what a person reads off a results page). */
const carried: { userId?: string; email?: string; esignProductId?: string } = {};

beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

/** demo_documents/userData.csv of the examples, with {account_id} replaced as importUser.js does. */
const userDataCsv = `AccountID,FirstName,LastName,UserEmail,PermissionSet
{account_id},First1,Last1,example1@sampleemail.example,DS Admin
{account_id},First2,Last2,example2@sampleemail.example,DS Admin`.replace(/{account_id}/g, accountId);

/** The SDK's multipart body: the CSV as the form field file.csv. */
function fileCsvPart(csv: string) {
  const boundary = '----docusign-admin-sdk';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file.csv"\r\nContent-Type: application/octet-stream\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    ),
  };
}

describe("DocuSign's Admin API examples, as they call the API", () => {
  it('getOrganizationId.js: organizations[0].id is the organisation', async () => {
    const r = await admin.call('GET', '/v2/organizations');
    expect(r.json.organizations[0].id).toBe(org);
  });

  it('eg001 createUser.js: a user with a permission profile and a group (from the eSignature API)', async () => {
    const auth = { authorization: `Bearer ${await admin.token()}` };
    const esign = `${admin.sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
    const profiles = (await (await sandboxFetch(`${esign}/permission_profiles`, { headers: auth })).json()) as {
      permissionProfiles: Array<{ permissionProfileId: string }>;
    };
    const groups = (await (await sandboxFetch(`${esign}/groups`, { headers: auth })).json()) as {
      groups: Array<{ groupId: string }>;
    };
    const r = await admin.call('POST', `/v2/organizations/${org}/users`, {
      body: {
        user_name: 'Ada Example',
        first_name: 'Ada',
        last_name: 'Example',
        email: 'ada.example@example.com',
        auto_activate_memberships: true,
        accounts: [
          {
            id: accountId,
            permission_profile: { id: profiles.permissionProfiles.at(-1)!.permissionProfileId },
            groups: [{ id: groups.groups.at(-1)!.groupId }],
          },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.accounts[0].id).toBe(accountId);
    carried.userId = r.json.id;
    carried.email = r.json.email;
  });

  it('eg003 bulkExportUserData.js: the export completes and its results[0].url gives the CSV with the Bearer token', async () => {
    let r = await admin.call('POST', `/v2/organizations/${org}/exports/user_list`, {
      body: { type: 'organization_memberships_export' },
    });
    expect(r.status, r.text).toBe(200);
    admin.advance(5000); // the example sleeps 5 s between its checks
    r = await admin.call('GET', `/v2/organizations/${org}/exports/user_list/${r.json.id}`);
    expect(r.json.status).toBe('completed');
    const csv = await sandboxFetch(r.json.results[0].url, {
      headers: { authorization: `Bearer ${await admin.token()}`, 'content-type': 'application/json' },
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain('ada.example@example.com');
  });

  it("eg004 importUser.js: the examples' userData.csv (permission set DS Admin) is added; its status says completed", async () => {
    const started = await admin.call('POST', `/v2/organizations/${org}/imports/bulk_users/add`, {
      raw: fileCsvPart(userDataCsv),
    });
    expect(started.status, started.text).toBe(200);
    admin.advance(1000);
    const status = await admin.call('GET', `/v2/organizations/${org}/imports/bulk_users/${started.json.id}`);
    expect(status.json).toMatchObject({ status: 'completed', added_user_count: 2, error_count: 0 });
  });

  it('eg005 auditUsers.js: users of the account changed in the last 10 days, then each one’s profiles by email', async () => {
    const since = new Date(Date.UTC(2026, 10, 18, 9, 0, 0)).toISOString().replace('.000Z', '+00:00');
    const users = await admin.call(
      'GET',
      `/v2/organizations/${org}/users?account_id=${accountId}&last_modified_since=${encodeURIComponent(since)}`,
    );
    expect(users.json.users.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining(['sandbox@signrun.test', 'ada.example@example.com', 'example1@sampleemail.example']),
    );
    for (const user of users.json.users as Array<{ email: string }>) {
      const profile = await admin.call(
        'GET',
        `/v2/organizations/${org}/users/profile?email=${encodeURIComponent(user.email)}`,
      );
      expect(profile.json.users[0].email ?? profile.json.users[0].memberships[0].email).toBe(user.email);
    }
  });

  it('eg006 getUserProfileByEmail.js and eg007 getUserProfileByUserId.js: the same profile', async () => {
    const byEmail = await admin.call('GET', `/v2.1/organizations/${org}/users/dsprofile?email=${carried.email}`);
    const byId = await admin.call('GET', `/v2.1/organizations/${org}/users/${carried.userId}/dsprofile`);
    expect(byEmail.json.users[0].id).toBe(carried.userId);
    expect(byId.json).toEqual(byEmail.json);
  });

  it("eg008 updateUserProductPermissionProfile.js: getData's checkUserExistsByEmail, the products, then the eSignature profile set by email", async () => {
    const exists = await admin.call('GET', `/v2/organizations/${org}/users?email=${carried.email}`);
    expect(exists.json.users.length > 0 && exists.json.users[0].user_status !== 'closed').toBe(true);
    const products = await admin.call(
      'GET',
      `/v2.1/organizations/${org}/accounts/${accountId}/products/permission_profiles`,
    );
    const esign = products.json.product_permission_profiles.find(
      (p: { product_name: string }) => p.product_name !== 'CLM',
    );
    carried.esignProductId = esign.product_id;
    const r = await admin.call(
      'POST',
      `/v2.1/organizations/${org}/accounts/${accountId}/products/permission_profiles/users`,
      {
        body: {
          email: carried.email,
          product_permission_profiles: [
            {
              permission_profile_id: esign.permission_profiles.at(-1).permission_profile_id,
              product_id: esign.product_id,
            },
          ],
        },
      },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.product_permission_profiles[0].permission_profiles[0].permission_profile_id).toBe(
      esign.permission_profiles.at(-1).permission_profile_id,
    );
  });

  it('eg009 deleteUserProductPermissionProfile.js: the profiles by email, then the product removed', async () => {
    const before = await admin.call(
      'GET',
      `/v2.1/organizations/${org}/accounts/${accountId}/products/permission_profiles/users?email=${carried.email}`,
    );
    expect(before.json.product_permission_profiles).toHaveLength(1);
    const r = await admin.call('DELETE', `/v2.1/organizations/${org}/accounts/${accountId}/products/users`, {
      body: { user_email: carried.email, product_ids: [carried.esignProductId] },
    });
    expect(r.json.is_success).toBe(true);
  });

  it("eg010 deleteUserDataFromOrganization.js: the profile by email, then its first membership's data redacted", async () => {
    const profiles = await admin.call('GET', `/v2.1/organizations/${org}/users/dsprofile?email=${carried.email}`);
    const user = profiles.json.users[0];
    const r = await admin.call('POST', `/v2/data_redaction/organizations/${org}/user`, {
      body: { user_id: user.id, memberships: [{ account_id: user.memberships[0].account_id }] },
    });
    expect(r.json).toMatchObject({ user_id: user.id, status: 'success' });
  });

  it('eg011 deleteUserDataFromAccount.js: a membership redacted by user id', async () => {
    const r = await admin.call('POST', `/v2/data_redaction/accounts/${accountId}/user`, {
      body: { user_id: carried.userId },
    });
    expect(r.json).toMatchObject({ user_id: carried.userId, status: 'success' });
  });

  it('eg012 cloneAccount.js: the compliant accounts, then a clone of the first', async () => {
    const accounts = await admin.call('GET', `/v2/organizations/${org}/assetGroups/accounts?compliant=true`);
    const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountClone`, {
      body: {
        sourceAccount: { id: accounts.json.assetGroupAccounts[0].accountId },
        targetAccount: {
          name: 'Example Clone',
          admin: { firstName: 'Cleo', lastName: 'Clone', email: 'cleo@example.com' },
          countryCode: 'US',
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ status: 'Pending', assetGroupWorkType: 'AccountAssetClone' });
  });

  it('eg013 createAccount.js: the first plan item, then an account from it', async () => {
    const items = await admin.call('GET', `/v2/organizations/${org}/planItems`);
    const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountCreate`, {
      body: {
        subscriptionDetails: { id: items.json[0].subscription_id, planId: items.json[0].plan_id, modules: [] },
        targetAccount: {
          name: 'CreatedThroughAPI',
          countryCode: 'US',
          admin: { email: 'nora@example.com', firstName: 'Nora', lastName: 'New', locale: 'en' },
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ Success: true, AssetGroupWork: { Status: 'Pending' } });
  });
});
