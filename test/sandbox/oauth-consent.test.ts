import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { keptPage, releaseBrowser, sharedBrowser, startReturnServer, type KeptPage } from '../helpers/browser.js';
import { seedCredentials } from './helpers/api.js';
import { jwtBearer, newKeyPair, seedUserHeaders, signAssertion, tokenRequest } from './helpers/jwt.js';

// The consent page (GET/POST /oauth/auth) completed by a person in Chromium,
// then the authorization code grant with PKCE and the refresh token grant.
let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
// One page for the file (issue 38), its cookies cleared before each test: the consent page keeps its
// state in cookies only (the CSRF cookie), so a test starts as in a fresh browser without a context of its own.
let kept: KeptPage;
beforeAll(async () => {
  [sandbox, back, browser] = await Promise.all([startSandbox({ port: 0 }), startReturnServer(), sharedBrowser()]);
  kept = await keptPage(browser);
});

/** The kept page with no cookie of an earlier test. */
async function freshPage(): Promise<{ page: Page; errors: string[] }> {
  await kept.context.clearCookies();
  expect(await kept.context.cookies()).toEqual([]);
  return { page: await kept.use(), errors: kept.errors };
}
afterAll(async () => {
  await releaseBrowser(browser);
  await back.close();
  await sandbox.close();
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function consentUrl(params: Record<string, string>): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'sandbox-integrator-key',
    redirect_uri: back.url,
    ...params,
  });
  return `${sandbox.origin}/oauth/auth?${query.toString()}`;
}

describe('consent page in Chromium', () => {
  it('signs in, allows, and comes back with a code that PKCE exchanges for tokens; the consent then serves the JWT grant', async () => {
    const { page, errors } = await freshPage();
    const { verifier, challenge } = pkce();
    // Before: the seed user has not consented to "extended".
    const key = await newKeyPair(sandbox.origin);
    const aud = new URL(sandbox.origin).host;
    const jwt = async () =>
      tokenRequest(sandbox.origin, {
        grant_type: jwtBearer,
        assertion: await signAssertion(key.privateKey, { aud, scope: 'signature extended' }),
      });
    expect((await jwt()).json.error).toBe('consent_required');

    await page.goto(
      consentUrl({
        scope: 'signature extended',
        state: 'st-42',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    await page.getByText('Allow access').first().waitFor();
    await page.getByLabel('Email or user name').fill(seedCredentials.username);
    await page.getByLabel('Password').fill(seedCredentials.password);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.toString().startsWith(back.url));
    const returned = new URL(page.url());
    expect(returned.searchParams.get('state')).toBe('st-42');
    const code = returned.searchParams.get('code');
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(errors).toEqual([]);

    const wrongVerifier = await tokenRequest(sandbox.origin, {
      grant_type: 'authorization_code',
      code: code!,
      code_verifier: pkce().verifier,
    });
    expect(wrongVerifier.json).toMatchObject({ error: 'invalid_grant', error_description: 'code_verifier_mismatch' });
    // A code is burnt by its first exchange, even a failed one: ask again.
    await page.goto(
      consentUrl({
        scope: 'signature extended',
        state: 'st-43',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    await page.getByLabel('Email or user name').fill(seedCredentials.username);
    await page.getByLabel('Password').fill(seedCredentials.password);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.toString().startsWith(back.url));
    const code2 = new URL(page.url()).searchParams.get('code')!;
    const tokens = await tokenRequest(sandbox.origin, {
      grant_type: 'authorization_code',
      code: code2,
      code_verifier: verifier,
      client_id: 'sandbox-integrator-key',
    });
    expect(tokens.status, JSON.stringify(tokens.json)).toBe(200);
    expect(tokens.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 8 * 3600,
      scope: 'signature extended',
      refresh_token: expect.any(String),
    });
    const again = await tokenRequest(sandbox.origin, {
      grant_type: 'authorization_code',
      code: code2,
      code_verifier: verifier,
    });
    expect(again.json).toMatchObject({ error: 'invalid_grant', error_description: 'invalid_code' });

    const info = await fetch(`${sandbox.origin}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.json.access_token}` },
    });
    expect(((await info.json()) as { email: string }).email).toBe(seedCredentials.username);

    const refreshed = await tokenRequest(sandbox.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.json.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(tokens.json.refresh_token);
    const replayed = await tokenRequest(sandbox.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.json.refresh_token,
    });
    expect(replayed.json).toMatchObject({ error: 'invalid_grant', error_description: 'invalid_refresh_token' });

    // Consent was recorded for (key, user, scopes): the JWT grant now works for them.
    expect((await jwt()).status).toBe(200);
  });

  it('Deny goes back with error=access_denied; a wrong password stays on the page with a message', async () => {
    const { page } = await freshPage();
    await page.goto(consentUrl({ scope: 'signature', state: 's1' }));
    await page.getByLabel('Email or user name').fill(seedCredentials.username);
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not right');
    expect(page.url().startsWith(back.url)).toBe(false);

    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((u) => u.toString().startsWith(back.url));
    const returned = new URL(page.url());
    expect(returned.searchParams.get('error')).toBe('access_denied');
    expect(returned.searchParams.get('state')).toBe('s1');
    expect(returned.searchParams.get('code')).toBeNull();
  });
});

describe('consent page safety (plain HTTP)', () => {
  it("refuses a form posted without the page's CSRF cookie, and cannot be framed", async () => {
    const get = await fetch(consentUrl({ scope: 'signature' }));
    expect(get.status).toBe(200);
    expect(get.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(get.headers.get('x-frame-options')).toBe('DENY');
    const token = /name="csrf_token" value="([^"]+)"/.exec(await get.text())![1]!;
    // The token alone (as a cross-site form would post it, the Strict cookie left behind): refused.
    const forged = await fetch(`${sandbox.origin}/oauth/auth`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        response_type: 'code',
        client_id: 'sandbox-integrator-key',
        redirect_uri: back.url,
        scope: 'signature',
        csrf_token: token,
        email: seedCredentials.username,
        password: seedCredentials.password,
        decision: 'allow',
      }).toString(),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('shows an error page, never a redirect, for an unknown integration key or a redirect_uri that is not http(s)', async () => {
    const unknown = await fetch(consentUrl({ client_id: 'nope', scope: 'signature' }), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    const js = await fetch(consentUrl({ redirect_uri: 'javascript:alert(1)', scope: 'signature' }), {
      redirect: 'manual',
    });
    expect(js.status).toBe(400);
    const badScope = await fetch(consentUrl({ scope: 'signature admin' }), { redirect: 'manual' });
    expect(badScope.status).toBe(303);
    expect(new URL(badScope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it("exchanges a code issued without PKCE only with a secret key of the integration key, as HTTP Basic (the SDKs' generateAccessToken)", async () => {
    const allow = async () => {
      const get = await fetch(consentUrl({ scope: 'signature' }));
      const cookie = get.headers.get('set-cookie')!.split(';')[0]!;
      const token = /name="csrf_token" value="([^"]+)"/.exec(await get.text())![1]!;
      const allowed = await fetch(`${sandbox.origin}/oauth/auth`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({
          response_type: 'code',
          client_id: 'sandbox-integrator-key',
          redirect_uri: back.url,
          scope: 'signature',
          csrf_token: token,
          email: seedCredentials.username,
          password: seedCredentials.password,
          decision: 'allow',
        }).toString(),
      });
      expect(allowed.status).toBe(303);
      return new URL(allowed.headers.get('location')!).searchParams.get('code')!;
    };
    const basic = (secret: string) => ({
      authorization: `Basic ${Buffer.from(`sandbox-integrator-key:${secret}`).toString('base64')}`,
    });
    const exchange = async (code: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${sandbox.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ grant_type: 'authorization_code', code }).toString(),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const none = await exchange(await allow());
    expect(none.status).toBe(401);
    expect(none.json.error).toBe('invalid_client');
    const made = await fetch(`${sandbox.origin}/sandbox/integrations/sandbox-integrator-key/secrets`, {
      method: 'POST',
      headers: seedUserHeaders(),
    });
    expect(made.status).toBe(201);
    const { secret } = (await made.json()) as { secret: string };
    const wrong = await exchange(await allow(), basic('not-the-secret'));
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_client');
    const right = await exchange(await allow(), basic(secret));
    expect(right.status, JSON.stringify(right.json)).toBe(200);
    expect(right.json.refresh_token).toEqual(expect.any(String));
  });
});
