import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { jwtBearer, newKeyPair, signAssertion, tokenRequest } from './helpers/jwt.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// code-examples-node's JWT login as it stands (lib/DSJwtAuth.js, commit
// 8b0ee71): its scope list grew organization_sub_account_read and
// organization_sub_account_write (the Admin API's sub-account scopes). The
// sandbox answered `invalid_scope` for them, so the examples' login — and
// with it every example of bench/fidelity — stopped at its first call.

const principal = {
  userId: '11111111-aaaa-4bbb-8ccc-000000000001',
  username: 'principal@examples.test',
  password: 'principal-password',
};

/** DsJwtAuth's `scopes`, the one string it passes to requestJWTUserToken. */
const dsJwtAuthScopes =
  'signature dtr.rooms.read dtr.rooms.write dtr.documents.read dtr.documents.write dtr.profile.read dtr.profile.write dtr.company.read dtr.company.write room_forms click.manage click.send organization_read group_read permission_read user_read user_write account_read domain_read identity_provider_read user_data_redact asset_group_account_read asset_group_account_clone_write asset_group_account_clone_read webforms_read webforms_instance_read webforms_instance_write aow_manage organization_sub_account_write organization_sub_account_read adm_store_unified_repo_read';

let sandbox: RunningSandbox;
let privateKey: string;
beforeAll(async () => {
  sandbox = await injectedSandbox({
    quiet: true,
    seedFile: fileURLToPath(new URL('./fixtures/admin-seed.yaml', import.meta.url)),
  });
  privateKey = (await newKeyPair(sandbox.origin, 'examples-key', principal)).privateKey;
});
afterAll(async () => sandbox.close());

describe("code-examples-node's JWT login (DsJwtAuth's scopes)", () => {
  it('asks for consent to the sub-account scopes instead of refusing them as unknown', async () => {
    const r = await tokenRequest(sandbox.origin, {
      grant_type: jwtBearer,
      assertion: await signAssertion(privateKey, {
        iss: 'examples-key',
        sub: principal.userId,
        aud: new URL(sandbox.origin).host,
        scope: dsJwtAuthScopes,
      }),
    });
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    // The seed user consented to the older list; the two new scopes are documented, not yet consented.
    expect(r.json.error).toBe('consent_required');
  });

  it("opens the consent page for DsJwtAuth's consent URL, listing the sub-account scopes", async () => {
    // DsJwtAuth builds it by hand: its scopes and impersonation, unencoded.
    const url = `${sandbox.origin}/oauth/auth?response_type=code&scope=${dsJwtAuthScopes} impersonation&client_id=examples-key&redirect_uri=http://localhost:3000/ds/callback`;
    const page = await sandboxFetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const scope of ['organization_sub_account_read', 'organization_sub_account_write'])
      expect(html).toContain(scope);
  });
});
