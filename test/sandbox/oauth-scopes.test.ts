import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { documentedScopes, knownScopes } from '../../src/sandbox/oauth/scopes.js';
import { call } from './helpers/api.js';
import { jwtBearer, newKeyPair, signAssertion, tokenRequest } from './helpers/jwt.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// DocuSign's documented OAuth scopes (src/sandbox/oauth/scopes.ts) on the
// JWT grant and the consent page, with the scopes DocuSign's Node examples
// ask for (code-examples-node, lib/common/DSJwtAuth.js), as they send them.

const principal = {
  userId: '11111111-aaaa-4bbb-8ccc-000000000001',
  username: 'principal@examples.test',
  password: 'principal-password',
};
/** DsJwtAuth's `scopes`, one string as the example passes it to requestJWTUserToken. */
const exampleScopes =
  'signature dtr.rooms.read dtr.rooms.write dtr.documents.read dtr.documents.write dtr.profile.read dtr.profile.write dtr.company.read dtr.company.write room_forms click.manage click.send webforms_read webforms_instance_read webforms_instance_write aow_manage';

let sandbox: RunningSandbox;
let privateKey: string;
let aud: string;
beforeAll(async () => {
  sandbox = await injectedSandbox({
    quiet: true,
    seedFile: fileURLToPath(new URL('./fixtures/admin-seed.yaml', import.meta.url)),
  });
  aud = new URL(sandbox.origin).host;
  privateKey = (await newKeyPair(sandbox.origin, 'examples-key', principal)).privateKey;
});
afterAll(async () => sandbox.close());

const grant = async (scope: string, sub = principal.userId) =>
  tokenRequest(sandbox.origin, {
    grant_type: jwtBearer,
    assertion: await signAssertion(privateKey, { iss: 'examples-key', sub, aud, scope }),
  });

describe('documented OAuth scopes', () => {
  it("grants the Node examples' sixteen scopes to a user who consented to them, and the token opens the API", async () => {
    const r = await grant(exampleScopes);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.scope).toBe(exampleScopes);
    const info = await call(
      `${sandbox.origin}/restapi/v2.1/accounts/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/envelopes?from_date=2020-01-01`,
      {
        headers: { authorization: `Bearer ${r.json.access_token}` },
      },
    );
    expect(info.status).toBe(200);
  });

  it('answers consent_required (not invalid_scope) for a documented scope the user has not consented to', async () => {
    const r = await grant('signature notary_read');
    expect(r.json.error).toBe('consent_required');
    const agent = await grant('signature', '11111111-aaaa-4bbb-8ccc-000000000002');
    expect(agent.json.error).toBe('consent_required');
  });

  it('refuses an undocumented scope with invalid_scope, naming only it', async () => {
    const r = await grant('signature dtr.rooms.delete');
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_scope');
    expect(r.json.error_description).toContain('dtr.rooms.delete');
    expect(r.json.error_description).not.toContain('signature');
  });

  it("opens the consent page for the examples' consent URL (their scopes plus impersonation)", async () => {
    // DsJwtAuth builds it by hand, scopes separated by spaces, unencoded.
    const url = `${sandbox.origin}/oauth/auth?response_type=code&scope=${exampleScopes} impersonation&client_id=examples-key&redirect_uri=http://127.0.0.1:3000/ds/logoutCallback`;
    const page = await sandboxFetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const scope of ['dtr.rooms.read', 'aow_manage', 'impersonation']) expect(html).toContain(scope);
  });

  it('knows every scope of every documented group, each once', () => {
    const all = Object.values(documentedScopes).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(knownScopes.size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(31);
  });

  it("keeps the seed schema's consent pattern in step with the list", () => {
    const schema = readFileSync(new URL('../../schemas/seed.schema.json', import.meta.url), 'utf8');
    const pattern = new RegExp(/"pattern": "(\^\\\\s\*\(signature[^"]*)"/.exec(schema)![1]!.replace(/\\\\/g, '\\'));
    expect(pattern.test([...knownScopes].join(' '))).toBe(true);
    expect(pattern.test('signature dtr.rooms.delete')).toBe(false);
  });
});
