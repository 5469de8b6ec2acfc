import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { sandboxFetch } from '../helpers/injected-sandbox.js';
import { seedUserHeaders } from '../helpers/jwt.js';
import { swaggerErrors } from '../helpers/swagger.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// An account's settings: one store for the eSignature API's …/settings and
// the Admin API's settings export and import.

let admin: AdminSandbox;
const org = defaultSeedIds.organizationId;
const main = defaultSeedIds.accountId;
const settingsUrl = () => `${admin.sandbox.origin}/restapi/v2.1/accounts/${main}/settings`;

beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

describe('account settings', () => {
  it('PUT through the eSignature API is what the Admin API exports', async () => {
    const put = await sandboxFetch(settingsUrl(), {
      method: 'PUT',
      headers: { ...seedUserHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({
        enableSequentialSigningAPI: 'true',
        allowSigningGroups: 'false',
        enableSequentialSigningAPIMetadata: { rights: 'editable' },
      }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const started = await admin.call('POST', `/v2/organizations/${org}/exports/account_settings`, {
      body: { accounts: [{ account_id: main }] },
    });
    admin.advance(1000);
    const done = await admin.call('GET', `/v2/organizations/${org}/exports/account_settings/${started.json.id}`);
    const csv = await admin.call('GET', new URL(done.json.results[0].url).pathname.replace(/^\/management/, ''), {
      unchecked: true,
    });
    expect(csv.text).toBe(`setting,${main}\nallowSigningGroups,false\nenableSequentialSigningAPI,true\n`);
  });

  it('an Admin API import is what the eSignature API reads (accountSettingsInformation)', async () => {
    const started = await admin.call('POST', `/v2/organizations/${org}/imports/account_settings`, {
      raw: { contentType: 'text/csv', payload: `setting,${main}\nallowSigningGroups,true\nenableAutoNav,\n` },
    });
    expect(started.json).toMatchObject({ status: 'queued' });
    admin.advance(1000);
    const done = await admin.call('GET', `/v2/organizations/${org}/imports/account_settings/${started.json.id}`);
    expect(done.json).toMatchObject({ status: 'completed', number_processed_accounts: 1, success: true });
    const read = await sandboxFetch(settingsUrl(), { headers: seedUserHeaders() });
    const body: unknown = await read.json();
    expect(body).toEqual({ allowSigningGroups: 'true', enableSequentialSigningAPI: 'true' });
    expect(swaggerErrors('accountSettingsInformation', body, 'v2.1')).toEqual([]);
  });

  it('an import naming an account outside the organisation processes the others and reports it', async () => {
    const outside = '0000cccc-0000-0000-0000-000000000000';
    const started = await admin.call('POST', `/v2/organizations/${org}/imports/account_settings`, {
      raw: { contentType: 'text/csv', payload: `setting,${main},${outside}\nenableAutoNav,true,true\n` },
    });
    admin.advance(1000);
    const done = await admin.call('GET', `/v2/organizations/${org}/imports/account_settings/${started.json.id}`);
    expect(done.json).toMatchObject({
      number_processed_accounts: 1,
      number_unprocessed_accounts: 1,
      success: false,
      results: [{ processing_issues_by_account: [{ account_id: outside, error: 'account_not_in_organization' }] }],
    });
  });

  it('a CSV whose setting is not a name is refused before it is queued', async () => {
    const r = await admin.call('POST', `/v2/organizations/${org}/imports/account_settings`, {
      raw: { contentType: 'text/csv', payload: `setting,${main}\nnot a name,true\n` },
    });
    expect(r.status).toBe(400);
    expect(r.json.error_description).toContain('Line 2');
  });
});
