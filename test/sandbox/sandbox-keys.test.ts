import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';
import { jwtBearer, seedUserHeaders, signAssertion, tokenRequest } from './helpers/jwt.js';
import { spawnServe } from './helpers/serve-process.js';
import { tempDir } from '../cli/run-helpers.js';
import { createActiveSubsidiary } from './helpers/accounts.js';

/**
 * The sandbox's own keys (issue 25): POST /sandbox/integrations/{key}/rsa-keys
 * and …/secrets mint credentials of an integration key (a key pair gets a
 * token for every user who consented to it), so they answer only a user of
 * the seed's accounts signed in with that key, and are off on a sandbox
 * started with --public-url unless --allow-key-generation is given.
 */

let sandbox: RunningSandbox;
beforeAll(async () => {
  const dir = await tempDir('signrun-keys-seed-');
  const seed = path.join(dir, 'seed.yaml');
  // Two integration keys, and the default seed's user (consented to the first one).
  await writeFile(
    seed,
    [
      'integratorKeys: [sandbox-integrator-key, other-app]',
      'accounts:',
      '  - accountName: Sandbox Corp',
      '    distributor: { code: SANDBOX-DISTRIBUTOR, password: sandbox-distributor-password }',
      '    users:',
      `      - userId: ${defaultSeedIds.userId}`,
      '        userName: sandbox@signrun.test',
      '        password: sandbox-password',
      "        oauthConsents: [{ integratorKey: sandbox-integrator-key, scopes: 'signature impersonation' }]",
      '',
    ].join('\n'),
  );
  sandbox = await startSandbox({ port: 0, quiet: true, seedFile: seed });
});
afterAll(async () => sandbox?.close());

const post = (origin: string, route: 'rsa-keys' | 'secrets', headers: Record<string, string> = {}) =>
  fetch(`${origin}/sandbox/integrations/sandbox-integrator-key/${route}`, { method: 'POST', headers });
const errorCode = async (response: Response) => ((await response.json()) as { errorCode?: string }).errorCode;

describe('POST /sandbox/integrations/{key}/rsa-keys and /secrets need the sandbox’s own authentication', () => {
  for (const route of ['rsa-keys', 'secrets'] as const) {
    it(`${route}: nobody signed in, or a wrong password: 401`, async () => {
      const anonymous = await post(sandbox.origin, route);
      expect(anonymous.status).toBe(401);
      expect(await errorCode(anonymous)).toBe('USER_AUTHENTICATION_FAILED');
      const wrong = await post(sandbox.origin, route, {
        'x-docusign-authentication': JSON.stringify({
          Username: 'sandbox@signrun.test',
          Password: 'not-the-password',
          IntegratorKey: 'sandbox-integrator-key',
        }),
      });
      expect(wrong.status).toBe(401);
    });

    it(`${route}: signed in with another integration key: 403`, async () => {
      const other = await post(sandbox.origin, route, seedUserHeaders('other-app'));
      expect(other.status).toBe(403);
      expect(await errorCode(other)).toBe('USER_LACKS_PERMISSIONS');
    });
  }

  it('a user of a subsidiary account (made through the API), signed in with that key: 403', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'Sub Corp', 'admin@sub.example');
    const r = await post(sandbox.origin, 'rsa-keys', {
      'x-docusign-authentication': JSON.stringify({
        Username: sub.credentials.username,
        Password: sub.credentials.password,
        IntegratorKey: 'sandbox-integrator-key',
      }),
    });
    expect(r.status).toBe(403);
    expect(await errorCode(r)).toBe('USER_LACKS_PERMISSIONS');
  });

  it('the seed user signed in with that key gets a key pair (legacy header), and then with a bearer token of that key', async () => {
    const first = await post(sandbox.origin, 'rsa-keys', seedUserHeaders());
    expect(first.status).toBe(201);
    const { privateKey } = (await first.json()) as { privateKey: string };
    const grant = await tokenRequest(sandbox.origin, {
      grant_type: jwtBearer,
      assertion: await signAssertion(privateKey, { aud: new URL(sandbox.origin).host }),
    });
    expect(grant.status, JSON.stringify(grant.json)).toBe(200);
    const second = await post(sandbox.origin, 'rsa-keys', { authorization: `Bearer ${grant.json.access_token}` });
    expect(second.status).toBe(201);
    expect(await post(sandbox.origin, 'secrets', seedUserHeaders())).toHaveProperty('status', 201);
  });
});

describe('with --public-url', () => {
  it('off (403 KEY_GENERATION_DISABLED) even for the seed user; on again with allowKeyGeneration, still behind sign-in', async () => {
    const open = await startSandbox({ port: 0, quiet: true, publicUrl: 'http://sandbox.example.test:8080' });
    try {
      for (const route of ['rsa-keys', 'secrets'] as const) {
        const refused = await post(open.origin, route, seedUserHeaders());
        expect(refused.status).toBe(403);
        expect(await errorCode(refused)).toBe('KEY_GENERATION_DISABLED');
      }
    } finally {
      await open.close();
    }
    const allowed = await startSandbox({
      port: 0,
      quiet: true,
      publicUrl: 'http://sandbox.example.test:8080',
      allowKeyGeneration: true,
    });
    try {
      expect((await post(allowed.origin, 'rsa-keys')).status).toBe(401);
      expect((await post(allowed.origin, 'rsa-keys', seedUserHeaders())).status).toBe(201);
    } finally {
      await allowed.close();
    }
  });

  it('`signrun serve --public-url … --allow-key-generation`: the flag reaches the sandbox, and the banner says so', async () => {
    const off = await spawnServe(['--public-url', 'http://sandbox.example.test:8080']);
    try {
      // The banner's lines come after the listening line: wait for the one about keys (no sleeping).
      await new Promise<void>((resolve) => {
        const check = () => (off.output().includes('key pairs:') ? resolve() : off.child.stdout?.once('data', check));
        check();
      });
      expect(off.output()).toContain('--allow-key-generation');
      expect((await post(off.origin, 'rsa-keys', seedUserHeaders())).status).toBe(403);
    } finally {
      off.child.kill('SIGTERM');
      await off.exited;
    }
    const on = await spawnServe(['--public-url', 'http://sandbox.example.test:8080', '--allow-key-generation']);
    try {
      expect((await post(on.origin, 'rsa-keys', seedUserHeaders())).status).toBe(201);
    } finally {
      on.child.kill('SIGTERM');
      await on.exited;
    }
  });
});
