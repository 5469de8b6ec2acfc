import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFetchOnce } from '../../src/client/fetch-once.js';
import { realTiming } from '../../src/client/timing.js';
import type { Auth } from '../../src/client/auth.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { makeSecret } from '../../src/secret.js';

/**
 * Redirects and credentials (issue 14, item 4): two loopback servers, the
 * configured service and "elsewhere" (another port: another origin). The
 * service answers redirects on demand; elsewhere records what reached it.
 */
const PASSWORD = 'redirect-password-never-elsewhere';
const auth: Auth = {
  kind: 'legacy',
  username: 'user@example.com',
  password: makeSecret(PASSWORD),
  integratorKey: 'ik',
};
type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
const atService: Seen[] = [];
const atElsewhere: Seen[] = [];
let service: http.Server;
let elsewhere: http.Server;
let serviceRoot: string;
let elsewhereRoot: string;

function listen(
  seen: Seen[],
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  elsewhere = await listen(atElsewhere, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"elsewhere":true}');
  });
  elsewhereRoot = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  service = await listen(atService, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const status = Number(url.searchParams.get('status') ?? 0);
    if (url.pathname === '/away') {
      res.writeHead(status, { location: `${elsewhereRoot}/stolen` });
      res.end();
    } else if (url.pathname === '/moved') {
      res.writeHead(status, { location: '/here' });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method }));
    }
  });
  serviceRoot = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  await new Promise((resolve) => elsewhere.close(resolve));
});
beforeEach(() => {
  atService.length = 0;
  atElsewhere.length = 0;
});

describe('redirects', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} to another origin is refused (SR_HTTP_REDIRECT_REFUSED): nothing reaches it, the password least of all`, async () => {
      const { send, close } = createFetchOnce({ timing: realTiming }); // eslint-disable-line @typescript-eslint/unbound-method
      try {
        const error = await send({
          method: 'POST',
          url: `${serviceRoot}/away?status=${status}`,
          auth,
          body: { password: 'in-the-body-too' },
          operation: 'createEnvelope',
        }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SignrunError);
        expect((error as SignrunError).code).toBe('SR_HTTP_REDIRECT_REFUSED');
        expect((error as SignrunError).message).toContain(elsewhereRoot);
        expect((error as SignrunError).message).not.toContain(PASSWORD);
        expect(atElsewhere).toEqual([]);
      } finally {
        close();
      }
    });
  }

  it('a redirect within the service is followed with the credentials; 307 repeats the POST, 303 goes on as a GET', async () => {
    const { send, close } = createFetchOnce({ timing: realTiming }); // eslint-disable-line @typescript-eslint/unbound-method
    try {
      const kept = await send({
        method: 'POST',
        url: `${serviceRoot}/moved?status=307`,
        auth,
        body: { a: 1 },
        operation: 'x',
      });
      expect(kept.json).toEqual({ method: 'POST' });
      const second = atService[1];
      expect(second?.url).toBe('/here');
      expect(second?.body).toBe('{"a":1}');
      expect(second?.headers['x-docusign-authentication']).toContain(PASSWORD);
      const changed = await send({
        method: 'POST',
        url: `${serviceRoot}/moved?status=303`,
        auth,
        body: { a: 1 },
        operation: 'x',
      });
      expect(changed.json).toEqual({ method: 'GET' });
      expect(atService[3]?.body).toBe('');
    } finally {
      close();
    }
  });
});
