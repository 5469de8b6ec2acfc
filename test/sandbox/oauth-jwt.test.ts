import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import type { Clock } from '../../src/sandbox/platform/clock.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';
import { SignJWT, UnsecuredJWT } from 'jose';
import { call, expectApiError } from './helpers/api.js';
import {
  jwtBearer,
  newKeyPair,
  seedUserHeaders,
  signAssertion,
  tokenRequest,
  type AssertionClaims,
} from './helpers/jwt.js';

// DocuSign's account server as the sandbox plays it (src/sandbox/oauth):
// the JWT bearer grant, userinfo and key registration, over real HTTP.

// A clock the test moves, so expiry needs no sleeping.
let now = Date.UTC(2026, 10, 24, 9, 0, 0);
const clock: Clock = { now: () => now };
let sandbox: RunningSandbox;
let privateKey: string;
let aud: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 }, { clock });
  aud = new URL(sandbox.origin).host;
  privateKey = (await newKeyPair(sandbox.origin)).privateKey;
});
afterAll(async () => sandbox.close());

async function grant(claims: AssertionClaims = {}, key = privateKey) {
  return tokenRequest(sandbox.origin, {
    grant_type: jwtBearer,
    assertion: await signAssertion(key, { aud, ...claims }, now),
  });
}

function expectOAuthError(r: { status: number; json: any }, error: string, description?: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(400);
  expect(r.json.error).toBe(error);
  if (description !== undefined) expect(r.json.error_description).toBe(description);
  expect(r.json.access_token).toBeUndefined();
}

describe('POST /oauth/token, JWT bearer grant', () => {
  it('mints a one-hour Bearer token that opens /restapi/v2 and /restapi/v2.1; userinfo names the account and the sandbox as base_uri', async () => {
    const r = await grant();
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'signature impersonation',
    });
    const bearer = { authorization: `Bearer ${r.json.access_token}` };

    const info = await fetch(`${sandbox.origin}/oauth/userinfo`, { headers: bearer });
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      sub: defaultSeedIds.userId,
      name: 'sandbox@signrun.test',
      email: 'sandbox@signrun.test',
      created: expect.any(String),
      accounts: [
        {
          account_id: defaultSeedIds.accountId,
          is_default: true,
          account_name: 'Sandbox Corp',
          base_uri: sandbox.origin,
        },
      ],
    });

    for (const version of ['v2', 'v2.1']) {
      const envelopes = await call(
        `${sandbox.origin}/restapi/${version}/accounts/${defaultSeedIds.accountId}/templates/${defaultSeedIds.templateId}`,
        { headers: bearer },
      );
      expect(envelopes.status, version).toBe(200);
    }
  });

  it('accepts account-d.docusign.com as audience, a subset of the scopes, and a key the caller registered itself', async () => {
    const own = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const registered = await fetch(`${sandbox.origin}/sandbox/integrations/sandbox-integrator-key/rsa-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...seedUserHeaders() },
      body: JSON.stringify({ publicKey: own.publicKey.export({ type: 'spki', format: 'pem' }) }),
    });
    expect(registered.status).toBe(201);
    const body = (await registered.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['keypairId', 'publicKey']);
    const pkcs8 = own.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const r = await grant({ aud: 'account-d.docusign.com', scope: 'signature' }, pkcs8);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.scope).toBe('signature');
  });

  it("answers DocuSign's invalid_grant reasons: unknown issuer, wrong environment, wrong key, user id not a GUID of a user", async () => {
    expectOAuthError(await grant({ iss: 'no-such-integration-key' }), 'invalid_grant', 'issuer_not_found');
    expectOAuthError(await grant({ aud: 'account.docusign.com' }), 'invalid_grant', 'issuer_not_found');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expectOAuthError(await grant({}, stranger.toString()), 'invalid_grant', 'no_valid_keys_or_signatures');
    expectOAuthError(await grant({ sub: 'sandbox@signrun.test' }), 'invalid_grant', 'user_not_found');
    expectOAuthError(await grant({ sub: '00000000-0000-4000-8000-000000000000' }), 'invalid_grant', 'user_not_found');
  });

  it('a user created through the API exists for the grant (eg043): consent is what it lacks, not the user; a closed one is not found', async () => {
    const users = `${sandbox.rootUrl}/accounts/${defaultSeedIds.accountId}/users`;
    const created = await call(users, {
      method: 'POST',
      headers: seedUserHeaders(),
      body: { newUsers: [{ userName: 'Agent Smith', email: 'agent.smith@example.com' }] },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const userId = (created.json as { newUsers: Array<{ userId: string }> }).newUsers[0]!.userId;
    // Its activation pending, as DocuSign's would be: the grant finds it, and asks for its consent.
    expectOAuthError(await grant({ sub: userId }), 'consent_required');
    const closed = await call(users, { method: 'DELETE', headers: seedUserHeaders(), body: { users: [{ userId }] } });
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    expectOAuthError(await grant({ sub: userId }), 'invalid_grant', 'user_not_found');
  });

  it("refuses an expired assertion, one from a clock ahead of the server's, and one that lives more than an hour", async () => {
    const nowSeconds = Math.floor(now / 1000);
    expectOAuthError(await grant({ iat: nowSeconds - 7200, exp: nowSeconds - 3600 }), 'invalid_grant', 'expired');
    expectOAuthError(await grant({ iat: nowSeconds + 600, exp: nowSeconds + 1200 }), 'invalid_grant', 'iat_in_future');
    expectOAuthError(await grant({ exp: nowSeconds + 7200 }), 'invalid_grant', 'exp_too_far');
    // Within the minute of tolerance: taken.
    expect((await grant({ iat: nowSeconds + 30, exp: nowSeconds + 600 })).status).toBe(200);
  });

  it('answers consent_required for a scope the user has not consented to, invalid_scope for an unknown one', async () => {
    expectOAuthError(await grant({ scope: 'signature impersonation extended' }), 'consent_required');
    expectOAuthError(await grant({ scope: 'signature admin' }), 'invalid_scope');
  });

  it("refuses other grant types and a missing or garbled assertion in OAuth's shape, not errorDetails", async () => {
    expectOAuthError(await tokenRequest(sandbox.origin, { grant_type: 'password' }), 'unsupported_grant_type');
    expectOAuthError(await tokenRequest(sandbox.origin, { grant_type: jwtBearer }), 'invalid_request');
    expectOAuthError(
      await tokenRequest(sandbox.origin, { grant_type: jwtBearer, assertion: 'not.a.jwt' }),
      'invalid_grant',
      'no_valid_keys_or_signatures',
    );
  });

  it('refuses an unsigned assertion (alg none) and an HS256 one keyed with the public key (algorithm confusion)', async () => {
    const pair = await newKeyPair(sandbox.origin);
    const nowSeconds = Math.floor(now / 1000);
    const claims = {
      iss: 'sandbox-integrator-key',
      sub: defaultSeedIds.userId,
      aud,
      scope: 'signature impersonation',
      iat: nowSeconds,
      exp: nowSeconds + 600,
    };
    const unsigned = new UnsecuredJWT(claims).encode();
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(pair.publicKey));
    for (const assertion of [unsigned, confused]) {
      expectOAuthError(
        await tokenRequest(sandbox.origin, { grant_type: jwtBearer, assertion }),
        'invalid_grant',
        'no_valid_keys_or_signatures',
      );
    }
  });

  it("lets a token expire by the sandbox's clock: then the API and userinfo refuse it", async () => {
    const r = await grant();
    const bearer = { authorization: `Bearer ${r.json.access_token}` };
    const url = `${sandbox.origin}/restapi/v2.1/accounts/${defaultSeedIds.accountId}/templates/${defaultSeedIds.templateId}`;
    expect((await call(url, { headers: bearer })).status).toBe(200);
    now += 3601_000;
    expectApiError(await call(url, { headers: bearer }), 401, 'USER_AUTHENTICATION_FAILED');
    const info = await fetch(`${sandbox.origin}/oauth/userinfo`, { headers: bearer });
    expect(info.status).toBe(401);
    expect(((await info.json()) as { error: string }).error).toBe('invalid_token');
  });

  it('builds base_uri from its configuration, never from the Host header a client sends', async () => {
    const r = await grant();
    const userinfoWithHost = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${sandbox.origin}/oauth/userinfo`,
          { headers: { host, authorization: `Bearer ${r.json.access_token}` } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    // A name the sandbox does not answer to is refused before any route runs (Host allow-list).
    expect((await userinfoWithHost('evil.example:443')).status).toBe(421);
    // A name it does answer to (localhost) still gets the configured origin back.
    const port = new URL(sandbox.origin).port;
    const answer = await userinfoWithHost(`localhost:${port}`);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { accounts: Array<{ base_uri: string }> }).accounts[0]!.base_uri).toBe(
      sandbox.origin,
    );
  });

  it('keeps no token, and no private key, in the database: only their sha256', async () => {
    const r = await grant();
    const pair = await newKeyPair(sandbox.origin);
    const db = sandbox.app.sandbox.db;
    const dump = JSON.stringify([
      db.prepare('SELECT * FROM access_tokens').all(),
      db.prepare('SELECT * FROM oauth_rsa_keys').all(),
    ]);
    expect(dump).not.toContain(r.json.access_token);
    expect(dump).not.toContain(pair.privateKey.split('\n')[1]);
    expect(dump).toContain(pair.publicKey.split('\n')[1]);
  });
});

describe('POST /sandbox/integrations/{integrationKey}/rsa-keys', () => {
  it('refuses an unknown integration key, a key that is not RSA, and a short one', async () => {
    const unknown = await fetch(`${sandbox.origin}/sandbox/integrations/nope/rsa-keys`, {
      method: 'POST',
      headers: seedUserHeaders(),
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { errorCode: string }).errorCode).toBe('INTEGRATOR_KEY_NOT_FOUND');
    const post = (publicKey: string) =>
      fetch(`${sandbox.origin}/sandbox/integrations/sandbox-integrator-key/rsa-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...seedUserHeaders() },
        body: JSON.stringify({ publicKey }),
      });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' });
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });
    for (const key of ['hello', ec.toString(), short.toString()]) {
      const r = await post(key);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { errorCode: string }).errorCode).toBe('INVALID_REQUEST_BODY');
    }
  });

  it('keeps registered keys in the data folder: a restarted sandbox still verifies assertions signed with them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signrun-oauth-'));
    try {
      const first = await startSandbox({ port: 0, dataDir });
      const pair = await newKeyPair(first.origin);
      await first.close();
      const second = await startSandbox({ port: 0, dataDir });
      try {
        const r = await tokenRequest(second.origin, {
          grant_type: jwtBearer,
          assertion: await signAssertion(pair.privateKey, { aud: new URL(second.origin).host }),
        });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('consents in a seed file', () => {
  it('records them per integration key, user and scope: the JWT grant works for those and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-oauth-seed-'));
    const userId = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
    writeFileSync(
      join(dir, 'seed.yaml'),
      [
        'integratorKeys: [app-one, app-two]',
        'accounts:',
        '  - accountName: Seeded',
        '    users:',
        `      - { userId: ${userId}, userName: seeded@example.com, password: pw,`,
        '          oauthConsents: [{ integratorKey: app-two, scopes: "signature impersonation" }] }',
        '',
      ].join('\n'),
    );
    const seeded = await startSandbox({ port: 0, seedFile: join(dir, 'seed.yaml') });
    try {
      const host = new URL(seeded.origin).host;
      const ask = async (iss: string) => {
        const pair = await newKeyPair(seeded.origin, iss, { username: 'seeded@example.com', password: 'pw' });
        return tokenRequest(seeded.origin, {
          grant_type: jwtBearer,
          assertion: await signAssertion(pair.privateKey, { iss, sub: userId, aud: host }),
        });
      };
      expectOAuthError(await ask('app-one'), 'consent_required');
      expect((await ask('app-two')).status).toBe(200);
    } finally {
      await seeded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
