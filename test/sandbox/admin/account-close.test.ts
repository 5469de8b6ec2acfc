import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { sandboxFetch } from '../helpers/injected-sandbox.js';
import { authHeader, call, expectApiError } from '../helpers/api.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// Closing an account of an organisation, as DocuSign does it: eSignature's
// DELETE /v2.1/accounts/{accountId} ("You must be an account admin to close
// your account") with the token of an administrator of the organisation that
// made the account. A closed account leaves the organisation's asset-group
// accounts; closing it again, an unknown account, a seeded account and a
// caller who is not an admin of it are refused with DocuSign's errors.

let admin: AdminSandbox;
const org = defaultSeedIds.organizationId;
const main = defaultSeedIds.accountId;

beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

/** DELETE /v2.1/accounts/{accountId} with the seed user's admin token (the JWT grant) or other headers. */
async function close(accountId: string, headers?: Record<string, string>) {
  return call(`${admin.sandbox.origin}/restapi/v2.1/accounts/${accountId}`, {
    method: 'DELETE',
    headers: headers ?? { authorization: `Bearer ${await admin.token()}` },
  });
}

/** An account the organisation creates from its plan item, once its work is done. */
async function createdAccount(name: string): Promise<string> {
  const r = await admin.call('POST', `/v2/organizations/${org}/assetGroups/accountCreate`, {
    body: {
      subscriptionDetails: { id: defaultSeedIds.subscriptionId, planId: 'sandbox-plan', modules: [] },
      targetAccount: { name, countryCode: 'DE', admin: { email: `admin@${name.replace(/\W/g, '')}.test` } },
    },
  });
  expect(r.status, r.text).toBe(200);
  admin.advance(1000);
  const work = r.json.AssetGroupWork;
  const done = await admin.call(
    'GET',
    `/v2/organizations/${org}/assetGroup/${work.AssetGroupId}/subAccountCreated/${work.AssetGroupWorkId}`,
  );
  expect(done.json.status).toBe('Completed');
  return done.json.targetAccount.id as string;
}

const listed = async () =>
  (await admin.call('GET', `/v2/organizations/${org}/assetGroups/accounts`)).json.assetGroupAccounts.map(
    (a: { accountId: string }) => a.accountId,
  ) as string[];

describe("closing an organisation's account (DELETE /v2.1/accounts/{accountId})", () => {
  it("the organisation's administrator closes it once: it leaves the asset-group accounts; again is refused", async () => {
    const accountId = await createdAccount('Acme Close');
    expect(await listed()).toContain(accountId);

    const closed = await close(accountId);
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    expect(await listed()).not.toContain(accountId);
    // The Admin API no longer reaches it either.
    const settings = await admin.call('GET', `/v2/organizations/${org}/accounts/${accountId}/groups`);
    expect(settings.status).toBeGreaterThanOrEqual(400);

    const again = await close(accountId);
    expectApiError(again, 400, 'USER_LACKS_MEMBERSHIP');
    expect(again.json.message).toMatch(/has been closed/);
  });

  it('an unknown account is USER_LACKS_MEMBERSHIP, as any account the caller has no membership in', async () => {
    const r = await close('99999999-0000-4000-8000-000000000000');
    expectApiError(r, 400, 'USER_LACKS_MEMBERSHIP');
    expect(r.json.message).not.toMatch(/closed/);
  });

  it('a user who is not an admin of the account is refused, and the account stays open', async () => {
    const accountId = await createdAccount('Acme Keep');
    // A sender of the main account: no admin of the organisation's account, nor of its own account.
    const seed = authHeader();
    const email = 'sender@close.test';
    const added = await call(`${admin.sandbox.origin}/restapi/v2.1/accounts/${main}/users`, {
      headers: seed,
      body: {
        newUsers: [
          { userName: 'Sam Sender', email, permissionProfileName: 'DocuSign Sender', password: 'pw-sender-1' },
        ],
      },
    });
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    const outbox = await call(`${admin.sandbox.origin}/sandbox/outbox?format=json&to=${encodeURIComponent(email)}`);
    const invitation = (outbox.json.messages as Array<{ kind: string; links: string[] }>).find(
      (m) => m.kind === 'user-activation',
    );
    expect((await sandboxFetch(invitation!.links[0]!)).status).toBe(200);
    const sender = authHeader({
      username: added.json.newUsers[0].userId,
      password: 'pw-sender-1',
      integratorKey: 'sandbox-integrator-key',
    });

    expectApiError(await close(accountId, sender), 400, 'USER_LACKS_MEMBERSHIP');
    expectApiError(await close(main, sender), 400, 'USER_LACKS_PERMISSIONS');
    expect(await listed()).toEqual(expect.arrayContaining([accountId, main]));
  });

  it('an account the organisation did not make (the seeded main account) is not closed through it', async () => {
    const r = await close(main);
    expectApiError(r, 400, 'ACCOUNT_LACKS_PERMISSIONS');
    expect(await listed()).toContain(main);
  });
});
