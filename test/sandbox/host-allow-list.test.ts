import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { HostAllowList, hostnameOf } from '../../src/sandbox/platform/limits/host-allow-list.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { authHeader, documentEnvelope, login, makePdf, rawRequest, seedCredentials } from './helpers/api.js';

// Issue 14, item 8: DNS rebinding. A page on evil.example whose name resolves
// to 127.0.0.1 reaches the sandbox with `Host: evil.example`; the sandbox
// must refuse such names, and never build an address from the Host header.

const json = (r: { body: string }) => JSON.parse(r.body) as Record<string, any>;

/** One request with a chosen Host header (fetch does not let a caller set it). */
function withHost(origin: string, path: string, host: string, init: { method?: string; body?: unknown } = {}) {
  const body = init.body === undefined ? '' : JSON.stringify(init.body);
  return rawRequest(
    `${origin}${path}`,
    init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    { host, ...authHeader(), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  );
}

let pdf: Buffer;
beforeAll(async () => {
  pdf = await makePdf(1);
});

async function embeddedViewUrl(origin: string, accountPath: string, host: string): Promise<string> {
  const created = await withHost(origin, `${accountPath}/envelopes`, host, { body: documentEnvelope(pdf) });
  expect(created.status, created.body).toBe(201);
  const view = await withHost(origin, `${accountPath}/envelopes/${json(created)['envelopeId']}/views/recipient`, host, {
    body: {
      userName: 'Jean Français',
      email: 'jean@example.com',
      clientUserId: 'emp-1',
      authenticationMethod: 'none',
      returnUrl: 'http://127.0.0.1:9/back',
    },
  });
  expect(view.status, view.body).toBe(201);
  return json(view)['url'] as string;
}

describe('Host allow-list (default: loopback)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  it('answers 421 HOST_NOT_ALLOWED to a name it does not own, on every kind of path', async () => {
    for (const path of [
      '/sandbox/outbox?format=json',
      '/restapi/v2/login_information',
      '/signing/some-token',
      '/nope',
    ]) {
      const r = await withHost(sandbox.origin, path, `evil.example:${new URL(sandbox.origin).port}`);
      expect(r.status, path).toBe(421);
      expect(json(r)['errorCode']).toBe('HOST_NOT_ALLOWED');
      expect(json(r)['message']).toContain('--public-url');
      expect(r.body).not.toContain('signing/'); // nothing of the outbox leaks
    }
  });

  it('answers its own names: localhost, loopback and other IP addresses, with any port', async () => {
    const port = new URL(sandbox.origin).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST.:${port}`,
      `[::1]:${port}`,
      '10.0.0.7:8080',
      'localhost',
    ]) {
      const r = await withHost(sandbox.origin, '/sandbox/outbox?format=json', host);
      expect(r.status, host).toBe(200);
    }
  });

  it('refuses names that only start like its own', async () => {
    for (const host of ['localhost.evil.example', '127.0.0.1.nip.io', 'evil.example:80:80', '[::1', 'a b']) {
      expect(new HostAllowList([]).allows(host), host).toBe(false);
    }
    expect(hostnameOf('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('Sandbox.Internal.:443')).toBe('sandbox.internal');
  });
});

describe('addresses come from configuration, never from the Host header', () => {
  it('a sandbox listening without a configured origin (as on 0.0.0.0) hands out its own address, whatever Host says', async () => {
    // buildSandboxApp + listen leaves config.origin unset, as a wildcard
    // address used to — without exposing a test server beyond loopback.
    const app: FastifyInstance = await buildSandboxApp({});
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const accountPath = new URL((await login(`${origin}/restapi/v2`)).baseUrl).pathname;
      expect(await embeddedViewUrl(origin, accountPath, '10.9.8.7:1234')).toMatch(new RegExp(`^${origin}/signing/`));
      // Before the allow-list, this answered 201 with http://evil.example/signing/….
      const evil = await withHost(origin, `${accountPath}/envelopes`, 'evil.example', { body: documentEnvelope(pdf) });
      expect(evil.status).toBe(421);
      const info = await withHost(origin, '/restapi/v2/login_information', '10.9.8.7');
      expect(json(info)['loginAccounts'][0]['baseUrl']).toMatch(new RegExp(`^${origin}/restapi/v2/accounts/`));
    } finally {
      await app.close();
    }
  });

  describe('with --public-url', () => {
    let sandbox: RunningSandbox;
    const publicUrl = 'https://sign.example.test/sandbox';
    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, publicUrl: `${publicUrl}/` });
    });
    afterAll(() => sandbox.close());

    it('answers its public name, and every address it hands out starts with the public URL', async () => {
      const host = 'sign.example.test';
      const info = await withHost(sandbox.origin, '/restapi/v2/login_information', host);
      expect(info.status).toBe(200);
      const baseUrl = json(info)['loginAccounts'][0]['baseUrl'] as string;
      expect(baseUrl.startsWith(`${publicUrl}/restapi/v2/accounts/`)).toBe(true);
      const accountPath = new URL(baseUrl).pathname.replace(/^\/sandbox/, '');
      expect(await embeddedViewUrl(sandbox.origin, accountPath, host)).toMatch(
        /^https:\/\/sign\.example\.test\/sandbox\/signing\//,
      );

      // A remote signer's link and an activation link in the outbox.
      const remote = await withHost(sandbox.origin, `${accountPath}/envelopes`, host, {
        body: documentEnvelope(pdf, {
          recipients: {
            signers: [{ name: 'Remote', email: 'remote@example.com', recipientId: '1', routingOrder: '1' }],
          },
        }),
      });
      expect(remote.status, remote.body).toBe(201);
      const account = await withHost(sandbox.origin, '/restapi/v2/accounts', host, {
        body: {
          accountName: 'Public Ltd',
          distributorCode: seedCredentials.distributorCode,
          distributorPassword: seedCredentials.distributorPassword,
          initialUser: { email: 'p@example.com', firstName: 'P', lastName: 'Q', password: 'pw-public-1' },
          planInformation: { planId: 'sandbox-plan' },
        },
      });
      expect(account.status, account.body).toBe(201);
      expect(json(account)['baseUrl']).toMatch(/^https:\/\/sign\.example\.test\/sandbox\/restapi\/v2\/accounts\//);
      const outbox = json(await withHost(sandbox.origin, '/sandbox/outbox?format=json', host));
      const links = (outbox['messages'] as Array<{ links: string[] }>).flatMap((m) => m.links);
      expect(links.length).toBeGreaterThanOrEqual(2);
      for (const link of links) expect(link.startsWith(`${publicUrl}/`), link).toBe(true);
    });

    it('still refuses other names', async () => {
      expect((await withHost(sandbox.origin, '/sandbox/outbox', 'other.example')).status).toBe(421);
    });
  });

  it('refuses a --public-url that is not an http(s) URL, without repeating a password', async () => {
    for (const bad of [
      'sign.example.test',
      'ftp://sign.example.test',
      'https://u:hunter2@sign.example.test',
      'http://x/?a=1',
    ]) {
      const error = await startSandbox({ port: 0, publicUrl: bad }).then(
        async (s) => {
          await s.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(error, bad).toBeInstanceOf(SignrunError);
      expect((error as SignrunError).code).toBe('SR_SANDBOX_PUBLIC_URL');
      expect((error as SignrunError).message).not.toContain('hunter2');
    }
  });
});
