import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, makePdf, type ApiResponse } from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Shared access as DocuSign's eg043 (code-examples-node,
// lib/eSignature/examples/sharedAccess.js) drives it: the principal looks
// for a `manage` grant to the agent (getAgentUserAuthorizations), creates one
// (createUserAuthorization, its body as the example builds it), and the
// agent lists the principal's envelopes with X-DocuSign-Act-On-Behalf.

const accountId = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const principal = {
  userId: '11111111-aaaa-4bbb-8ccc-000000000001',
  username: 'principal@examples.test',
  password: 'principal-password',
  integratorKey: 'examples-key',
};
const agent = {
  userId: '11111111-aaaa-4bbb-8ccc-000000000002',
  username: 'agent@examples.test',
  password: 'agent-password',
  integratorKey: 'examples-key',
};

let sandbox: RunningSandbox;
let base: string;
beforeAll(async () => {
  sandbox = await injectedSandbox({
    quiet: true,
    seedFile: fileURLToPath(new URL('./fixtures/admin-seed.yaml', import.meta.url)),
  });
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => sandbox.close());

/**
 * A call to the shared-access paths, which the repository's Swagger (an older
 * one) does not list, so `call` cannot check their answers against it: the
 * tests check their fields against the SDK's UserAuthorization(s) models.
 */
async function shared(
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: unknown },
): Promise<ApiResponse> {
  const response = await sandboxFetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...init.headers, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, json, bytes };
}

const asPrincipal = authHeader(principal);
const asAgent = authHeader(agent);
const onBehalf = { ...asAgent, 'X-DocuSign-Act-On-Behalf': principal.userId };
/** eg043's getEnvelopes options: moment().subtract(10, 'days').format(). */
const fromDate = () => new Date(Date.now() - 10 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');

describe('shared access', () => {
  let authorizationId: string;
  let envelopeId: string;

  it('refuses to act on behalf before any access is shared', async () => {
    const made = await call(`${base}/envelopes`, {
      method: 'POST',
      headers: asPrincipal,
      body: documentEnvelope(await makePdf()),
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    envelopeId = made.json.envelopeId;
    expectApiError(
      await call(`${base}/envelopes?from_date=${encodeURIComponent(fromDate())}`, { headers: onBehalf }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
  });

  it("creates eg043's authorization after finding no manage grant, and the agent lists the principal's envelopes on their behalf", async () => {
    const existing = await shared(`${base}/users/${agent.userId}/authorizations/agent?permissions=manage`, {
      headers: asPrincipal,
    });
    expect(existing.status, JSON.stringify(existing.json)).toBe(200);
    expect(existing.json.resultSetSize).toBe('0');

    // createAuthorizationRequest(agentUserId, args)
    const body = { agentUser: { userId: agent.userId, accountId }, permission: 'manage' };
    const created = await shared(`${base}/users/${principal.userId}/authorization`, {
      method: 'POST',
      headers: asPrincipal,
      body,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json).toMatchObject({
      permission: 'manage',
      principalUser: { userId: principal.userId, accountId, email: principal.username },
      agentUser: { userId: agent.userId, accountId, email: agent.username },
      startDate: expect.any(String),
      created: expect.any(String),
    });
    // Only the fields of the SDK's UserAuthorization model (docusign-esign, model/UserAuthorization.js).
    const modelFields = [
      'agentUser',
      'authorizationId',
      'created',
      'createdBy',
      'endDate',
      'modified',
      'modifiedBy',
      'permission',
      'principalUser',
      'startDate',
    ];
    expect(Object.keys(created.json).filter((k) => !modelFields.includes(k))).toEqual([]);
    authorizationId = created.json.authorizationId;
    const found = await shared(`${base}/users/${agent.userId}/authorizations/agent?permissions=manage`, {
      headers: asPrincipal,
    });
    expect(found.json.resultSetSize).toBe('1');
    const mine = await shared(`${base}/users/${principal.userId}/authorizations`, { headers: asPrincipal });
    expect(mine.json.authorizations.map((a: { authorizationId: string }) => a.authorizationId)).toEqual([
      authorizationId,
    ]);

    const listed = await call(`${base}/envelopes?from_date=${encodeURIComponent(fromDate())}`, { headers: onBehalf });
    expect(listed.status, JSON.stringify(listed.json)).toBe(200);
    expect(listed.json.envelopes.map((e: { envelopeId: string }) => e.envelopeId)).toContain(envelopeId);
  });

  it('sends as the principal when the agent acts on their behalf', async () => {
    const made = await call(`${base}/envelopes`, {
      method: 'POST',
      headers: onBehalf,
      body: documentEnvelope(await makePdf()),
    });
    expect(made.status).toBe(201);
    const sent = await call(`${base}/folders/sentitems`, { headers: asPrincipal });
    const item = sent.json.envelopes.find((e: { envelopeId: string }) => e.envelopeId === made.json.envelopeId);
    expect(item.senderUserId).toBe(principal.userId);
  });

  it("keeps a user from managing another's grants, and ends access when the grant ends or is deleted", async () => {
    expectApiError(
      await shared(`${base}/users/${principal.userId}/authorization`, {
        method: 'POST',
        headers: asAgent,
        body: { agentUser: { userId: agent.userId, accountId }, permission: 'manage' },
      }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
    const ended = await shared(`${base}/users/${principal.userId}/authorization/${authorizationId}`, {
      method: 'PUT',
      headers: asPrincipal,
      body: { startDate: '2020-01-01T00:00:00Z', endDate: '2021-01-01T00:00:00Z' },
    });
    expect(ended.status, JSON.stringify(ended.json)).toBe(200);
    expectApiError(
      await call(`${base}/envelopes?from_date=${encodeURIComponent(fromDate())}`, { headers: onBehalf }),
      400,
      'USER_LACKS_PERMISSIONS',
    );

    const again = await shared(`${base}/users/${principal.userId}/authorization`, {
      method: 'POST',
      headers: asPrincipal,
      body: { agentUser: { userId: agent.userId, accountId }, permission: 'send' },
    });
    expect(
      (await call(`${base}/envelopes?from_date=${encodeURIComponent(fromDate())}`, { headers: onBehalf })).status,
    ).toBe(200);
    const deleted = await shared(`${base}/users/${principal.userId}/authorizations`, {
      method: 'DELETE',
      headers: asPrincipal,
      body: { authorizations: [again.json.authorizationId, 'no-such-grant'] },
    });
    expect(deleted.json.results).toEqual([
      { authorizationId: again.json.authorizationId, success: 'true' },
      { authorizationId: 'no-such-grant', success: 'false', errorMessage: 'AUTHORIZATION_NOT_FOUND' },
    ]);
    expectApiError(
      await call(`${base}/envelopes?from_date=${encodeURIComponent(fromDate())}`, { headers: onBehalf }),
      400,
      'USER_LACKS_PERMISSIONS',
    );
    expectApiError(
      await shared(`${base}/users/${principal.userId}/authorization/${authorizationId}`, {
        method: 'DELETE',
        headers: asPrincipal,
      }).then(async () =>
        shared(`${base}/users/${principal.userId}/authorization/${authorizationId}`, { headers: asPrincipal }),
      ),
      400,
      'AUTHORIZATION_NOT_FOUND',
    );
  });

  it('refuses an agent of no user of the account, and a permission DocuSign does not have', async () => {
    expectApiError(
      await shared(`${base}/users/${principal.userId}/authorization`, {
        method: 'POST',
        headers: asPrincipal,
        body: { agentUser: { userId: crypto.randomUUID(), accountId }, permission: 'manage' },
      }),
      400,
      'USER_NOT_FOUND',
    );
    expectApiError(
      await shared(`${base}/users/${principal.userId}/authorization`, {
        method: 'POST',
        headers: asPrincipal,
        body: { agentUser: { userId: agent.userId, accountId }, permission: 'own' },
      }),
      400,
      'INVALID_REQUEST_BODY',
    );
  });
});
