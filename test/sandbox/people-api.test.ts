import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, makePdf, type Credentials } from './helpers/api.js';
import { createActiveSubsidiary } from './helpers/accounts.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Users, groups and permission profiles (issue 23) over HTTP through inject() on
// /restapi/v2.1: every JSON answer is checked against DocuSign's v2.1
// Swagger by `call`. Each test works in a fresh subsidiary, so none sees
// another's users.

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

let n = 0;
async function subsidiary(): Promise<{ base: string; headers: Record<string, string>; userId: string }> {
  n += 1;
  const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, `people-${n}`, `admin${n}@people.test`);
  return {
    base: `${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}`,
    headers: authHeader(sub.credentials),
    userId: sub.userId,
  };
}

async function activate(email: string): Promise<void> {
  const outbox = await call(`${sandbox.origin}/sandbox/outbox?format=json&to=${encodeURIComponent(email)}`);
  const invitation = (outbox.json.messages as Array<{ kind: string; links: string[] }>).find(
    (m) => m.kind === 'user-activation',
  );
  expect(invitation, `an invitation to ${email}`).toBeDefined();
  expect((await sandboxFetch(invitation!.links[0]!)).status).toBe(200);
}

describe('permission profiles', () => {
  it("lists DocuSign's three built-in profiles in a new account, then creates, reads, updates and deletes one", async () => {
    const { base, headers } = await subsidiary();
    const listed = await call(`${base}/permission_profiles`, { headers });
    expect(listed.status).toBe(200);
    expect(
      listed.json.permissionProfiles.map((p: { permissionProfileName: string }) => p.permissionProfileName),
    ).toEqual(['Account Administrator', 'DocuSign Sender', 'DocuSign Viewer']);
    const created = await call(`${base}/permission_profiles`, {
      headers,
      body: { permissionProfileName: 'Legal', settings: { allowEnvelopeSending: 'false', notADocuSignSetting: 'x' } },
    });
    expect(created.status).toBe(201);
    expect(created.json.settings).toEqual({ allowEnvelopeSending: 'false' });
    const id = created.json.permissionProfileId as string;
    // A second profile of the same name (any case) is refused.
    expectApiError(
      await call(`${base}/permission_profiles`, { headers, body: { permissionProfileName: 'LEGAL' } }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
    // PUT merges the settings it gives over the profile's.
    const updated = await call(`${base}/permission_profiles/${id}`, {
      method: 'PUT',
      headers,
      body: { settings: { allowBulkSending: 'true' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.settings).toEqual({ allowEnvelopeSending: 'false', allowBulkSending: 'true' });
    const read = await call(`${base}/permission_profiles/${id}?include=user_count`, { headers });
    expect(read.json).toMatchObject({ permissionProfileName: 'Legal', userCount: '0' });
    expect((await call(`${base}/permission_profiles/${id}`, { method: 'DELETE', headers })).status).toBe(200);
    expectApiError(await call(`${base}/permission_profiles/${id}`, { headers }), 400, 'INVALID_REQUEST_PARAMETER');
    // DocuSign's own profiles stay.
    const admin = listed.json.permissionProfiles[0].permissionProfileId as string;
    expectApiError(
      await call(`${base}/permission_profiles/${admin}`, { method: 'DELETE', headers }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
  });

  it('refuses to delete a profile users still have, unless they move to another (move_users_to)', async () => {
    const { base, headers } = await subsidiary();
    const profile = (await call(`${base}/permission_profiles`, { headers, body: { permissionProfileName: 'Temp' } }))
      .json;
    const added = await call(`${base}/users`, {
      headers,
      body: {
        newUsers: [{ userName: 'Tim', email: 'tim@people.test', permissionProfileId: profile.permissionProfileId }],
      },
    });
    expect(added.json.newUsers[0].permissionProfileName).toBe('Temp');
    const url = `${base}/permission_profiles/${profile.permissionProfileId}`;
    expectApiError(await call(url, { method: 'DELETE', headers }), 400, 'INVALID_REQUEST_PARAMETER');
    const sender = (await call(`${base}/permission_profiles`, { headers })).json.permissionProfiles.find(
      (p: { permissionProfileName: string }) => p.permissionProfileName === 'DocuSign Sender',
    );
    expect(
      (await call(`${url}?move_users_to=${sender.permissionProfileId}`, { method: 'DELETE', headers })).status,
    ).toBe(200);
    const tim = await call(`${base}/users/${added.json.newUsers[0].userId}`, { headers });
    expect(tim.json.permissionProfileName).toBe('DocuSign Sender');
  });
});

describe('groups', () => {
  it('creates, renames, lists and deletes groups in bulk, and adds and removes their users', async () => {
    const { base, headers } = await subsidiary();
    const created = await call(`${base}/groups`, {
      headers,
      body: { groups: [{ groupName: 'Sales' }, { groupName: 'Legal' }, { groupName: 'sales' }] },
    });
    expect(created.status).toBe(201);
    const [sales, legal, twin] = created.json.groups;
    expect(sales).toMatchObject({ groupName: 'Sales', groupType: 'customGroup' });
    expect(legal.groupName).toBe('Legal');
    expect(twin.errorDetails.errorCode).toBe('INVALID_REQUEST_PARAMETER');

    const renamed = await call(`${base}/groups`, {
      method: 'PUT',
      headers,
      body: { groups: [{ groupId: legal.groupId, groupName: 'Legal team' }] },
    });
    expect(renamed.json.groups[0].groupName).toBe('Legal team');

    const user = (
      await call(`${base}/users`, { headers, body: { newUsers: [{ userName: 'Sam', email: 'sam@people.test' }] } })
    ).json.newUsers[0];
    const membersUrl = `${base}/groups/${sales.groupId}/users`;
    expect(
      (await call(membersUrl, { method: 'PUT', headers, body: { users: [{ userId: user.userId }] } })).status,
    ).toBe(200);
    expect((await call(membersUrl, { headers })).json.users.map((u: { email: string }) => u.email)).toEqual([
      'sam@people.test',
    ]);
    const inSales = await call(`${base}/users?group_id=${sales.groupId}&additional_info=true`, { headers });
    expect(inSales.json.users).toHaveLength(1);
    expect(inSales.json.users[0].groupList.map((g: { groupName: string }) => g.groupName)).toEqual([
      'Everyone',
      'Sales',
    ]);
    expect(
      (await call(membersUrl, { method: 'DELETE', headers, body: { users: [{ userId: user.userId }] } })).status,
    ).toBe(200);
    expect((await call(membersUrl, { headers })).json.users).toEqual([]);

    const listed = await call(`${base}/groups?include_usercount=true`, { headers });
    expect(listed.json.groups.map((g: { groupName: string }) => g.groupName)).toEqual([
      'Administrators',
      'Everyone',
      'Sales',
      'Legal team',
    ]);
    const deleted = await call(`${base}/groups`, {
      method: 'DELETE',
      headers,
      body: { groups: [{ groupId: sales.groupId }, { groupId: listed.json.groups[1].groupId }] },
    });
    expect(deleted.json.groups[0].groupName).toBe('Sales');
    expect(deleted.json.groups[1].errorDetails.errorCode).toBe('INVALID_REQUEST_PARAMETER'); // Everyone stays
    expect((await call(`${base}/groups`, { headers })).json.groups).toHaveLength(3);
  });
});

describe('users', () => {
  it('adds a user (an invitation in the outbox activates them), refuses the same email twice, updates and closes them', async () => {
    const { base, headers } = await subsidiary();
    const added = await call(`${base}/users`, {
      headers,
      body: {
        newUsers: [
          { userName: 'Ann Lee', email: 'ann@people.test', firstName: 'Ann', password: 'ann-password-1' },
          { userName: 'Ann again', email: 'ANN@people.test' },
        ],
      },
    });
    expect(added.status).toBe(201);
    const [ann, again] = added.json.newUsers;
    expect(ann).toMatchObject({
      userName: 'Ann Lee',
      userStatus: 'ActivationSent',
      permissionProfileName: 'DocuSign Sender',
    });
    expect(again.errorDetails.errorCode).toBe('USER_ALREADY_EXISTS_IN_ACCOUNT');

    const annAuth = { username: ann.userId, password: 'ann-password-1', integratorKey: 'sandbox-integrator-key' };
    const before = await call(`${base}/users/${ann.userId}`, { headers: authHeader(annAuth) });
    expectApiError(before, 401, 'USER_AUTHENTICATION_FAILED');
    await activate('ann@people.test');
    expect((await call(`${base}/users/${ann.userId}`, { headers: authHeader(annAuth) })).json.userStatus).toBe(
      'Active',
    );

    const updated = await call(`${base}/users/${ann.userId}`, {
      method: 'PUT',
      headers,
      body: { userName: 'Ann B. Lee', permissionProfileName: 'DocuSign Viewer' },
    });
    expect(updated.json).toMatchObject({
      userName: 'Ann B. Lee',
      permissionProfileName: 'DocuSign Viewer',
      firstName: 'Ann',
    });
    const byEmail = await call(`${base}/users?email=ann%40people.test`, { headers });
    expect(byEmail.json.users.map((u: { userId: string }) => u.userId)).toEqual([ann.userId]);

    const closed = await call(`${base}/users`, {
      method: 'DELETE',
      headers,
      body: { users: [{ userId: ann.userId }] },
    });
    expect(closed.json.users[0].userStatus).toBe('Closed');
    // Closed: gone from the default listing, listed when asked, no longer able to log in.
    expect((await call(`${base}/users?email=ann%40people.test`, { headers })).json.users).toEqual([]);
    expect((await call(`${base}/users?status=closed`, { headers })).json.users).toHaveLength(1);
    expectApiError(
      await call(`${base}/users/${ann.userId}`, { headers: authHeader(annAuth) }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
    // Added again: the same user, reopened.
    const back = await call(`${base}/users`, {
      headers,
      body: { newUsers: [{ userName: 'Ann', email: 'ann@people.test' }] },
    });
    expect(back.json.newUsers[0].userId).toBe(ann.userId);
  });
});

describe('on /restapi/v2', () => {
  it("answers the same resources in v2's Swagger shapes", async () => {
    const { base, headers } = await subsidiary();
    const v2 = base.replace('/restapi/v2.1/', '/restapi/v2/');
    await call(`${v2}/users`, { headers, body: { newUsers: [{ userName: 'Vic', email: 'vic@people.test' }] } });
    await call(`${v2}/groups`, { headers, body: { groups: [{ groupName: 'V2 group' }] } });
    const profile = await call(`${v2}/permission_profiles`, { headers, body: { permissionProfileName: 'V2 profile' } });
    expect(profile.status).toBe(201);
    expect((await call(`${v2}/users?additional_info=true`, { headers })).json.users).toHaveLength(2);
    expect((await call(`${v2}/groups`, { headers })).json.groups).toHaveLength(3);
    expect((await call(`${v2}/permission_profiles?include=users`, { headers })).json.permissionProfiles).toHaveLength(
      4,
    );
  });
});

describe('what the sandbox enforces of a permission profile', () => {
  async function userWith(
    base: string,
    headers: Record<string, string>,
    profile: string,
    email: string,
  ): Promise<Credentials> {
    const added = await call(`${base}/users`, {
      headers,
      body: { newUsers: [{ userName: email, email, permissionProfileName: profile, password: `${email}-pw` }] },
    });
    await activate(email);
    return {
      username: added.json.newUsers[0].userId,
      password: `${email}-pw`,
      integratorKey: 'sandbox-integrator-key',
    };
  }

  it('allowEnvelopeSending "false": a draft is made, sending it is USER_LACKS_PERMISSIONS; a sender sends', async () => {
    const { base, headers } = await subsidiary();
    const viewer = authHeader(await userWith(base, headers, 'DocuSign Viewer', 'viewer@people.test'));
    const pdf = await makePdf();
    expectApiError(
      await call(`${base}/envelopes`, { headers: viewer, body: documentEnvelope(pdf, { status: 'sent' }) }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
    const draft = await call(`${base}/envelopes`, {
      headers: viewer,
      body: documentEnvelope(pdf, { status: 'created' }),
    });
    expect(draft.status).toBe(201);
    expectApiError(
      await call(`${base}/envelopes/${draft.json.envelopeId}`, {
        method: 'PUT',
        headers: viewer,
        body: { status: 'sent' },
      }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
    const sender = authHeader(await userWith(base, headers, 'DocuSign Sender', 'sender@people.test'));
    const sent = await call(`${base}/envelopes`, { headers: sender, body: documentEnvelope(pdf, { status: 'sent' }) });
    expect(sent.status).toBe(201);
  });

  it('allowAccountManagement "false": a sender reads the account\'s groups but may not change them', async () => {
    const { base, headers } = await subsidiary();
    const sender = authHeader(await userWith(base, headers, 'DocuSign Sender', 'clerk@people.test'));
    expect((await call(`${base}/groups`, { headers: sender })).status).toBe(200);
    expectApiError(
      await call(`${base}/groups`, { headers: sender, body: { groups: [{ groupName: 'Mine' }] } }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
    expectApiError(
      await call(`${base}/users`, { headers: sender, body: { newUsers: [{ userName: 'X', email: 'x@people.test' }] } }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
  });
});
