import { sandboxFetch } from './injected-sandbox.js';
import { expect } from 'vitest';
import { authHeader, call, seedCredentials, type Credentials } from './api.js';

/** Creates and activates a subsidiary account through the API and the outbox; returns its user's credentials. */
export async function createActiveSubsidiary(
  rootUrl: string,
  origin: string,
  name: string,
  email: string,
): Promise<{ accountId: string; userId: string; credentials: Credentials }> {
  const created = await call(`${rootUrl}/accounts`, {
    headers: authHeader(),
    body: {
      accountName: name,
      distributorCode: seedCredentials.distributorCode,
      distributorPassword: seedCredentials.distributorPassword,
      initialUser: { email, firstName: 'Test', lastName: 'User', password: `${name}-password`, userName: email },
      planInformation: { planId: 'sandbox-plan' },
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const outbox = await call(`${origin}/sandbox/outbox?format=json&accountId=${created.json.accountId}`);
  const link = (outbox.json.messages as Array<{ kind: string; links: string[] }>).find(
    (m) => m.kind === 'account-activation',
  )!.links[0]!;
  expect((await sandboxFetch(link)).status).toBe(200);
  return {
    accountId: created.json.accountId,
    userId: created.json.userId,
    credentials: {
      username: created.json.userId,
      password: `${name}-password`,
      integratorKey: seedCredentials.integratorKey,
    },
  };
}
