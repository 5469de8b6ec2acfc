import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// DocuSign's errors on every route of the Admin API the sandbox serves,
// operation by operation from DocuSign's Swagger: no token, a token without
// the operation's scope (the Swagger's accessCode), an unknown organisation.

interface Operation {
  method: string;
  path: string;
  scope: string;
}

const swagger = JSON.parse(
  readFileSync(new URL('../../fixtures/docusign/admin.rest.swagger-v2.1.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, { security?: Array<{ accessCode?: string[] }> }>> };

/** Organisation-level Connect (connect_org_* scopes) is not emulated: the sandbox's Connect is per account. */
const notServed = (path: string) => /\/connect(\/|$)/.test(path);

const operations: Operation[] = Object.entries(swagger.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([method]) => method !== 'parameters')
    .map(([method, op]) => ({ method: method.toUpperCase(), path, scope: op.security?.[0]?.accessCode?.[0] ?? '' })),
);
const served = operations.filter((o) => !notServed(o.path));

const org = defaultSeedIds.organizationId;
const unknownOrg = '0000aaaa-0000-0000-0000-000000000000';
const fill = (path: string, organizationId: string) =>
  path
    .replace('{organizationId}', organizationId)
    .replace('{accountId}', defaultSeedIds.accountId)
    .replace(/\{[^}]+\}/g, '1');

/** An empty JSON body where the method takes one. */
const bodyFor = (op: Operation) => (op.method === 'GET' ? {} : { body: {} });

let admin: AdminSandbox;
beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

describe("every Admin API route the sandbox serves answers DocuSign's errors", () => {
  it('serves all of the Swagger but organisation-level Connect', () => {
    expect(served.length).toBe(62);
    expect(operations.length - served.length).toBe(12);
  });

  it('without a token: 401 unauthorized', async () => {
    for (const op of served) {
      const r = await admin.call(op.method, fill(op.path, org), { token: '' });
      expect(r.status, `${op.method} ${op.path}`).toBe(401);
      expect(r.json.error, `${op.method} ${op.path}`).toBe('unauthorized');
    }
  });

  it("with a token lacking the operation's scope: 401 naming that scope", async () => {
    const token = await admin.token('signature impersonation');
    for (const op of served) {
      const r = await admin.call(op.method, fill(op.path, org), { token, ...bodyFor(op) });
      expect(r.status, `${op.method} ${op.path}`).toBe(401);
      expect(r.json.error_description, `${op.method} ${op.path}`).toContain(`scope ${op.scope}:`);
    }
  });

  it('for an organisation the caller does not administer: 404 not_found', async () => {
    for (const op of served.filter((o) => o.path.includes('{organizationId}'))) {
      const r = await admin.call(op.method, fill(op.path, unknownOrg), bodyFor(op));
      expect(r.status, `${op.method} ${op.path}`).toBe(404);
      expect(r.json, `${op.method} ${op.path}`).toEqual({
        error: 'not_found',
        error_description: expect.stringContaining(unknownOrg),
      });
    }
  });

  it('redaction in an account outside the organisations the caller administers: 400 invalid_request', async () => {
    const r = await admin.call('POST', '/v2/data_redaction/accounts/0000bbbb-0000-0000-0000-000000000000/user', {
      body: { user_id: defaultSeedIds.userId },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_request');
  });

  it("organisation-level Connect is not served: the Admin API's not_found", async () => {
    const r = await admin.call('GET', `/v2/organizations/${org}/connect`, { unchecked: true });
    expect(r.status).toBe(404);
    expect(r.json.error).toBe('not_found');
  });
});

describe('data redaction', () => {
  it("erases a user's personal data from their memberships in the organisation (DocuSign eg010, eg011)", async () => {
    const created = await admin.call('POST', `/v2/organizations/${org}/users`, {
      body: { user_name: 'Rita Redact', email: 'rita@example.com', accounts: [{ id: defaultSeedIds.accountId }] },
    });
    const byOrg = await admin.call('POST', `/v2/data_redaction/organizations/${org}/user`, {
      body: { user_id: created.json.id, memberships: [{ account_id: defaultSeedIds.accountId }] },
    });
    expect(byOrg.json).toEqual({
      user_id: created.json.id,
      status: 'success',
      membership_results: [{ account_id: defaultSeedIds.accountId, status: 'success' }],
    });
    const found = await admin.call('GET', `/v2/organizations/${org}/users?email=rita@example.com`);
    expect(found.json.users).toEqual([]);
    const row = admin.sandbox.app.sandbox.accounts.user(created.json.id);
    expect(row).toMatchObject({ userName: 'Redacted User', closedAt: expect.any(Number), details: {} });
    expect(row?.email).not.toContain('rita');
  });
});
