import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, expectApiError, login } from './helpers/api.js';
import { createActiveSubsidiary } from './helpers/accounts.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// Authentication keeps the verified caller between calls (auth/authenticate.ts);
// a change to accounts or users, made by this process or by another one on the
// same data folder, must be seen by the very next call.
const sandboxes: RunningSandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function twoOnOneFolder(): Promise<[RunningSandbox, RunningSandbox]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signrun-auth-cache-'));
  dirs.push(dataDir);
  const a = await injectedSandbox({ dataDir });
  sandboxes.push(a);
  const b = await injectedSandbox({ dataDir });
  sandboxes.push(b);
  return [a, b];
}

describe('cached authentication', () => {
  it('refuses a caller at once when another process on the same data folder deletes its account', async () => {
    const [a, b] = await twoOnOneFolder();
    const sub = await createActiveSubsidiary(a.rootUrl, a.origin, 'Shared', 'shared@example.com');
    const token = await call(`${a.rootUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: new URLSearchParams({
        grant_type: 'password',
        client_id: sub.credentials.integratorKey,
        username: sub.credentials.username,
        password: sub.credentials.password,
      }).toString(),
    });
    expect(token.status).toBe(201);
    const bearer = { authorization: `Bearer ${token.json.access_token as string}` };
    // Warm: the same header and token twice on a, once on b.
    for (let i = 0; i < 2; i++) {
      expect((await call(`${a.rootUrl}/login_information`, { headers: authHeader(sub.credentials) })).status).toBe(200);
      expect((await call(`${a.rootUrl}/login_information`, { headers: bearer })).status).toBe(200);
    }
    const onB = await login(b.rootUrl, sub.credentials);
    expect((await call(onB.baseUrl, { method: 'DELETE', headers: authHeader(sub.credentials) })).status).toBe(200);

    expectApiError(
      await call(`${a.rootUrl}/login_information`, { headers: authHeader(sub.credentials) }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
    expectApiError(
      await call(`${a.rootUrl}/login_information`, { headers: bearer }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
    // The seed's user, untouched, still gets in on both.
    expect((await call(`${a.rootUrl}/login_information`, { headers: authHeader() })).status).toBe(200);
    expect((await call(`${b.rootUrl}/login_information`, { headers: authHeader() })).status).toBe(200);
  });

  it('a header that was accepted does not open the door to the same user with another password', async () => {
    const [a] = await twoOnOneFolder();
    const sub = await createActiveSubsidiary(a.rootUrl, a.origin, 'Guarded', 'guarded@example.com');
    expect((await call(`${a.rootUrl}/login_information`, { headers: authHeader(sub.credentials) })).status).toBe(200);
    expectApiError(
      await call(`${a.rootUrl}/login_information`, {
        headers: authHeader({ ...sub.credentials, password: 'Guarded-passwore' }),
      }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
    // The same credentials in the XML form (another header text) are verified afresh and accepted.
    const xml = `<DocuSignCredentials><Username>${sub.credentials.username}</Username><Password>${sub.credentials.password}</Password><IntegratorKey>${sub.credentials.integratorKey}</IntegratorKey></DocuSignCredentials>`;
    expect(
      (await call(`${a.rootUrl}/login_information`, { headers: { 'X-DocuSign-Authentication': xml } })).status,
    ).toBe(200);
  });
});
