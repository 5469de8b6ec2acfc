import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../cli/run-helpers.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

/**
 * /oauth/auth redirects only to an address the client owns (issue 25; RFC
 * 6749 §4.1.2.1): a bad response_type, scope or code_challenge_method is
 * sent back to redirect_uri only once client_id is known and redirect_uri is
 * one of its redirect URIs (a seed's `oauthRedirectUris`, DocuSign's consent
 * page, loopback); before that, a 400 error page and no Location at all.
 * `sandbox-integrator-key` has a registered redirect URI (strict, as at
 * DocuSign); `open-key` has none, as the built-in seed's key (lenient: any
 * address, but only after the person answered on the page).
 */

let sandbox: RunningSandbox;
const registered = 'https://app.example.test/callback';
beforeAll(async () => {
  const dir = await tempDir('signrun-oauth-redirects-');
  const seed = path.join(dir, 'seed.yaml');
  await writeFile(
    seed,
    [
      'integratorKeys: [sandbox-integrator-key, open-key]',
      'oauthRedirectUris:',
      `  sandbox-integrator-key: ['${registered}']`,
      'accounts:',
      '  - accountName: Sandbox Corp',
      '    users:',
      '      - { userName: sandbox@signrun.test, password: sandbox-password }',
      '',
    ].join('\n'),
  );
  sandbox = await injectedSandbox({ quiet: true, seedFile: seed });
});
afterAll(async () => sandbox?.close());

const ask = (params: Record<string, string>, method: 'GET' | 'POST' = 'GET') => {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'sandbox-integrator-key',
    scope: 'signature',
    ...params,
  }).toString();
  return method === 'GET'
    ? sandboxFetch(`${sandbox.origin}/oauth/auth?${query}`, { redirect: 'manual' })
    : sandboxFetch(`${sandbox.origin}/oauth/auth`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: query,
      });
};

const bad = {
  'a bad response_type': { response_type: 'token' },
  'a bad scope': { scope: 'signature admin' },
  'a bad code_challenge_method': { code_challenge: 'abc', code_challenge_method: 'plain' },
};

describe('/oauth/auth: no redirect before the client and its redirect_uri are known good', () => {
  for (const [what, params] of Object.entries(bad)) {
    for (const method of ['GET', 'POST'] as const) {
      for (const client of ['sandbox-integrator-key', 'open-key']) {
        it(`${method} with ${what} and a redirect_uri ${client} does not own: 400 page, no redirect`, async () => {
          const r = await ask({ ...params, client_id: client, redirect_uri: 'https://evil.example/steal' }, method);
          expect(r.status).toBe(400);
          expect(r.headers.get('location')).toBeNull();
          expect(r.headers.get('content-type')).toMatch(/^text\/html/);
        });
      }
    }

    it(`with ${what} and an unknown client_id: 400 page, no redirect, even to a loopback address`, async () => {
      const r = await ask({ ...params, client_id: 'nope', redirect_uri: 'http://127.0.0.1:9/cb' });
      expect(r.status).toBe(400);
      expect(r.headers.get('location')).toBeNull();
    });

    it(`with ${what} and a redirect_uri of the key: the error goes back there (RFC 6749 §4.1.2.1)`, async () => {
      for (const redirectUri of [registered, 'http://127.0.0.1:9/cb']) {
        const r = await ask({ ...params, redirect_uri: redirectUri, state: 's1' });
        expect(r.status).toBe(303);
        const to = new URL(r.headers.get('location')!);
        expect(`${to.origin}${to.pathname}`).toBe(redirectUri);
        expect(to.searchParams.get('error')).toBeTruthy();
        expect(to.searchParams.get('state')).toBe('s1');
      }
    });
  }

  it('a good request with a redirect_uri a key with registered ones does not own is refused too (a code never goes there)', async () => {
    const r = await ask({ redirect_uri: 'https://evil.example/steal' });
    expect(r.status).toBe(400);
    expect(r.headers.get('location')).toBeNull();
  });

  it('a key without registered redirect URIs shows the consent page for any address (the page names it), redirecting nowhere', async () => {
    const r = await ask({ client_id: 'open-key', redirect_uri: 'https://app.example.com/cb' });
    expect(r.status).toBe(200);
    expect(r.headers.get('location')).toBeNull();
    expect(await r.text()).toContain('https://app.example.com');
  });

  it("a good request with a registered redirect_uri, DocuSign's consent page or loopback shows the consent page", async () => {
    for (const redirectUri of [
      registered,
      'https://developers.docusign.com/platform/auth/consent',
      'http://localhost:5000/x',
    ]) {
      const r = await ask({ redirect_uri: redirectUri });
      expect(r.status, redirectUri).toBe(200);
    }
  });
});
