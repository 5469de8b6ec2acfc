import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call } from './helpers/api.js';
import { createActiveSubsidiary } from './helpers/accounts.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// DocuSign's own permission-profile examples (github.com/docusign/code-examples-node,
// lib/eSignature/examples: createPermission.js = eg024, permissionSetUserGroup.js
// = eg025, permissionChangeSingleSetting.js = eg026, deletePermission.js = eg027).
// Each request body is written here as the example sends it (the Node SDK
// puts the `permissionProfile` / `groupInformation` option on the wire as
// the body), with the calls its controller makes around it; the sandbox must
// accept them unchanged. Those four are every eSignature example of the
// repository about users, groups or permission profiles (its user examples
// are of the Admin API, another service).

let sandbox: RunningSandbox;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true });
  const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'examples', 'admin@examples.test');
  base = `${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}`;
  headers = authHeader(sub.credentials);
});
afterAll(async () => {
  await sandbox.close();
});

/** eg024's request body for args.profileName (a number where the example writes one; a setting the Swagger lacks). */
const eg024Body = (profileName: string) => ({
  permissionProfileName: profileName,
  settings: {
    useNewDocuSignExperienceInterface: 0,
    allowBulkSending: 'true',
    allowEnvelopeSending: 'true',
    allowSignerAttachments: 'true',
    allowTaggingInSendAndCorrect: 'true',
    allowWetSigningOverride: 'true',
    allowedAddressBookAccess: 'personalAndShared',
    allowedTemplateAccess: 'share',
    enableRecipientViewingNotifications: 'true',
    enableSequentialSigningInterface: 'true',
    receiveCompletedSelfSignedDocumentsAsEmailLinks: 'false',
    signingUiVersion: 'v2',
    useNewSendingInterface: 'true',
    allowApiAccess: 'true',
    allowApiAccessToAccount: 'true',
    allowApiSendingOnBehalfOfOthers: 'true',
    allowApiSequentialSigning: 'true',
    enableApiRequestLogging: 'true',
    allowDocuSignDesktopClient: 'false',
    allowSendersToSetRecipientEmailLanguage: 'true',
    allowVaulting: 'false',
    allowedToBeEnvelopeTransferRecipient: 'true',
    enableTransactionPointIntegration: 'false',
    powerFormRole: 'admin',
    vaultingMode: 'none',
  },
});

async function profileNamed(name: string): Promise<{ permissionProfileId: string; settings: Record<string, string> }> {
  const listed = await call(`${base}/permission_profiles`, { headers });
  expect(listed.status).toBe(200);
  const profiles = listed.json.permissionProfiles as Array<{
    permissionProfileName: string;
    permissionProfileId: string;
    settings: Record<string, string>;
  }>;
  return profiles.find((p) => p.permissionProfileName === name)!;
}

describe("DocuSign's permission profile examples, unchanged", () => {
  it('eg024 creates a permission profile', async () => {
    const created = await call(`${base}/permission_profiles`, { headers, body: eg024Body('eg024 profile') });
    expect(created.status).toBe(201);
    expect(created.json.permissionProfileName).toBe('eg024 profile');
    expect(created.json.settings).toMatchObject({ useNewDocuSignExperienceInterface: '0', allowBulkSending: 'true' });
    expect((await profileNamed('eg024 profile')).permissionProfileId).toBe(created.json.permissionProfileId);
  });

  it('eg025 sets a permission profile on a group (after listing profiles and groups, as its form does)', async () => {
    const profile = (await call(`${base}/permission_profiles`, { headers, body: eg024Body('eg025 profile') })).json;
    const group = (await call(`${base}/groups`, { headers, body: { groups: [{ groupName: 'eg025 group' }] } })).json
      .groups[0];
    const groups = await call(`${base}/groups`, { headers });
    expect(groups.status).toBe(200);
    const set = await call(`${base}/groups`, {
      method: 'PUT',
      headers,
      body: { groups: [{ permissionProfileId: profile.permissionProfileId, groupId: group.groupId }] },
    });
    expect(set.status).toBe(200);
    expect(set.json.groups[0]).toMatchObject({
      groupId: group.groupId,
      groupName: 'eg025 group',
      permissionProfileId: profile.permissionProfileId,
    });
  });

  it('eg026 updates a profile with its name alone, and its settings stay', async () => {
    const profile = (await call(`${base}/permission_profiles`, { headers, body: eg024Body('eg026 profile') })).json;
    const updated = await call(`${base}/permission_profiles/${profile.permissionProfileId}`, {
      method: 'PUT',
      headers,
      body: { permissionProfileName: 'eg026 profile renamed' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.permissionProfileName).toBe('eg026 profile renamed');
    expect(updated.json.settings).toEqual(profile.settings);
  });

  it('eg027 deletes a permission profile', async () => {
    const profile = (await call(`${base}/permission_profiles`, { headers, body: eg024Body('eg027 profile') })).json;
    const deleted = await call(`${base}/permission_profiles/${profile.permissionProfileId}`, {
      method: 'DELETE',
      headers,
    });
    expect(deleted.status).toBe(200);
    expect((await profileNamed('eg027 profile')) as unknown).toBeUndefined();
  });
});
