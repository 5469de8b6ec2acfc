import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { ClientHttpError, ClientNetworkError } from '../../src/client/client-errors.js';
import type { ClientEvent } from '../../src/client/api-request.js';
import type { Timing } from '../../src/client/timing.js';
import { AttemptBudget, defaultRetryPolicy } from '../../src/client/retry-policy.js';
import { makeSecret } from '../../src/secret.js';
import { writeStreamAtomic } from '../../src/output/atomic-write.js';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The client layers against a real HTTP server on 127.0.0.1:0 that provokes
 * faults the sandbox does not produce on demand (a script of answers per
 * path). Time is injected: nothing sleeps, the delays asked for are asserted.
 */
type Answer = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
const script = new Map<string, Answer[]>();
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
let server: http.Server;
let root: string;

const PASSWORD = 'pa55-w0rd-never-shown';
const TOKEN = 'bearer-token-never-shown';

function json(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
}
const reset: Answer = (req) => req.socket.destroy();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const key = `${req.method} ${req.url?.split('?')[0]}`;
      const answers = script.get(key) ?? [];
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorCode: 'NOT_SCRIPTED', message: key }));
        return;
      }
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/restapi/v2`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  script.clear();
  seen.length = 0;
});

function fakeTiming(): Timing & { delays: number[] } {
  const delays: number[] = [];
  let t = Date.parse('2026-11-20T12:00:00Z');
  return {
    delays,
    now: () => t,
    delay: async (ms) => {
      delays.push(ms);
      t += ms;
    },
    random: () => 0.5,
  };
}

function client(events: ClientEvent[] = [], timing = fakeTiming(), auth: 'legacy' | 'bearer' = 'legacy') {
  return {
    timing,
    client: EsignatureClient.create({
      rootUrl: root,
      auth:
        auth === 'legacy'
          ? { kind: 'legacy', username: 'me@example.com', password: makeSecret(PASSWORD), integratorKey: 'ik' }
          : { kind: 'bearer', accessToken: makeSecret(TOKEN) },
      timing,
      onEvent: (e) => events.push(e),
    }),
  };
}

const login = json(200, { loginAccounts: [{ accountId: '42', isDefault: 'true', baseUrl: '' }] });

describe('authentication headers', () => {
  it('sends X-DocuSign-Authentication as JSON, or a bearer token', async () => {
    script.set('GET /restapi/v2/login_information', [login]);
    const a = client();
    await a.client.loginInformation();
    expect(JSON.parse(String(seen[0]?.headers['x-docusign-authentication']))).toEqual({
      Username: 'me@example.com',
      Password: PASSWORD,
      IntegratorKey: 'ik',
    });
    const b = client([], fakeTiming(), 'bearer');
    await b.client.loginInformation();
    expect(seen[1]?.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    a.client.close();
    b.client.close();
  });
});

describe('retry layer', () => {
  it('retries a GET after 503 and after a connection reset, with backoff asked of the clock', async () => {
    script.set('GET /restapi/v2/login_information', [json(503, { errorCode: 'UNAVAILABLE' }), reset, login]);
    const events: ClientEvent[] = [];
    const { client: c, timing } = client(events);
    const info = await c.loginInformation();
    expect(info.loginAccounts?.[0]?.accountId).toBe('42');
    expect(seen).toHaveLength(3);
    expect(timing.delays).toEqual([125, 250]); // full jitter with random 0.5: half of 250, 500
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { reason: string }).reason)).toEqual([
      'status 503',
      'network ECONNRESET',
    ]);
    expect(events.filter((e) => e.type === 'request')).toHaveLength(3);
    c.close();
  });

  it('never retries envelope creation after 5xx or a reset: the service may have created it', async () => {
    for (const [fault, code] of [
      [json(500, { errorCode: 'INTERNAL' }), 'SR_HTTP_STATUS'],
      [reset, 'SR_HTTP_NETWORK'],
    ] as const) {
      script.clear();
      seen.length = 0;
      script.set('GET /restapi/v2/login_information', [
        json(200, { loginAccounts: [{ accountId: '42', isDefault: 'true' }] }),
      ]);
      script.set('POST /restapi/v2/accounts/42/envelopes', [fault, json(201, { envelopeId: 'second-copy' })]);
      const { client: c } = client();
      const account = await c.login();
      const error = await account.createEnvelope({ emailSubject: 's', status: 'sent' }).catch((e: unknown) => e);
      expect((error as ClientHttpError).code).toBe(code);
      expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
      c.close();
    }
  });

  it('retries a POST refused with 429, waiting the Retry-After', async () => {
    script.set('GET /restapi/v2/login_information', [
      json(200, { loginAccounts: [{ accountId: '42', isDefault: 'true' }] }),
    ]);
    script.set('POST /restapi/v2/accounts/42/envelopes', [
      json(429, { errorCode: 'TOO_MANY' }, { 'retry-after': '7' }),
      json(201, { envelopeId: 'env-1' }),
    ]);
    const { client: c, timing } = client();
    const account = await c.login();
    const summary = await account.createEnvelope({ emailSubject: 's', status: 'sent' });
    expect(summary.envelopeId).toBe('env-1');
    expect(timing.delays).toEqual([7000]);
    c.close();
  });

  it('gives up at once when Retry-After is longer than the policy allows', async () => {
    script.set('GET /restapi/v2/login_information', [
      json(429, { errorCode: 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED' }, { 'retry-after': '3600' }),
      login,
    ]);
    const { client: c, timing } = client();
    const error = await c.loginInformation().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientHttpError);
    expect((error as ClientHttpError).code).toBe('SR_RATE_LIMITED');
    expect(timing.delays).toEqual([]);
    c.close();
  });

  it('stops after the attempt limit', async () => {
    script.set('GET /restapi/v2/login_information', [json(502, {})]);
    const { client: c } = client();
    const error = await c.loginInformation().catch((e: unknown) => e);
    expect((error as ClientHttpError).status).toBe(502);
    expect(seen).toHaveLength(4);
    c.close();
  });
});

describe('errors are built redacted', () => {
  it('carry status, method, path and errorCode, never the password, token or a signing address', async () => {
    const echo: Answer = (req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          errorCode: 'USER_AUTHENTICATION_FAILED',
          message: `bad ${String(req.headers['x-docusign-authentication'])} see http://127.0.0.1:1/signing/tok-SECRET?x=1`,
        }),
      );
    };
    script.set('GET /restapi/v2/login_information', [echo]);
    const { client: c } = client();
    const error = (await c.loginInformation().catch((e: unknown) => e)) as ClientHttpError;
    expect(error.code).toBe('SR_HTTP_AUTH');
    expect(error.status).toBe(400);
    expect(error.serviceErrorCode).toBe('USER_AUTHENTICATION_FAILED');
    expect(error.request).toEqual({
      method: 'GET',
      path: '/restapi/v2/login_information',
      operation: 'loginInformation',
    });
    const everything = `${error.message} ${JSON.stringify(error)} ${inspect(error, { depth: 5 })} ${String(error.stack)}`;
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('tok-SECRET');
    c.close();
  });

  it('network errors name the system code, not the URL query', async () => {
    const { client: c } = client();
    const closed = EsignatureClient.create({
      rootUrl: 'http://127.0.0.1:1/restapi/v2',
      auth: { kind: 'bearer', accessToken: makeSecret(TOKEN) },
      timing: fakeTiming(),
    });
    const error = (await closed.loginInformation().catch((e: unknown) => e)) as ClientNetworkError;
    expect(error.code).toBe('SR_HTTP_NETWORK');
    expect(error.systemCode).toBe('ECONNREFUSED');
    expect(error.maybeProcessed).toBe(false);
    closed.close();
    c.close();
  });
});

describe('rate-limit headers', () => {
  it('are read on every response and exposed', async () => {
    script.set('GET /restapi/v2/login_information', [
      json(
        200,
        { loginAccounts: [] },
        { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '998', 'x-ratelimit-reset': '1800000000' },
      ),
    ]);
    const events: ClientEvent[] = [];
    const { client: c } = client(events);
    await c.loginInformation();
    expect(c.rateLimit).toMatchObject({ limit: 1000, remaining: 998 });
    expect(events[0]).toMatchObject({ type: 'request', status: 200, rateLimit: { remaining: 998 } });
    c.close();
  });

  it('the throttle waits for the window reset when nothing remains', async () => {
    const timing = fakeTiming();
    const resetAt = timing.now() / 1000 + 20;
    script.set('GET /restapi/v2/login_information', [
      json(
        200,
        { loginAccounts: [] },
        { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) },
      ),
    ]);
    const { client: c } = client([], timing);
    await c.loginInformation();
    await c.loginInformation();
    expect(timing.delays).toEqual([20_000]);
    c.close();
  });
});

describe('downloads', () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 7)]);
  it('stream to disk with sha256; a body that breaks off is downloaded again, leaving no partial file', async () => {
    const truncated: Answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
      res.write(pdf.subarray(0, 1000), () => res.socket?.destroy());
    };
    const full: Answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
      res.end(pdf);
    };
    script.set('GET /restapi/v2/login_information', [
      json(200, { loginAccounts: [{ accountId: '42', isDefault: 'true' }] }),
    ]);
    script.set('GET /restapi/v2/accounts/42/envelopes/e1/documents/1', [truncated, full]);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'signrun-dl-'));
    const target = path.join(dir, 'doc.pdf');
    const events: ClientEvent[] = [];
    const { client: c } = client(events);
    const account = await c.login();
    const written = await account.downloadDocument('e1', '1', (body) => writeStreamAtomic(target, body));
    expect(written.size).toBe(pdf.length);
    expect(written.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(
      createHash('sha256')
        .update(await readFile(target))
        .digest('hex'),
    ).toBe(written.sha256);
    expect(await readdir(dir)).toEqual(['doc.pdf']);
    expect(events.some((e) => e.type === 'retry' && e.operation === 'downloadDocument')).toBe(true);
    c.close();
  });
});

describe('one retry owner: a bounded total of attempts per operation', () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 7)]);
  const truncated: Answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
    res.write(pdf.subarray(0, 1000), () => res.socket?.destroy());
  };

  it('a download restarted after broken bodies, its GETs retried after 503, makes at most policy.limit requests', async () => {
    script.set('GET /restapi/v2/login_information', [
      json(200, { loginAccounts: [{ accountId: '42', isDefault: 'true' }] }),
    ]);
    // Stacked loops (download restarts × retries of each GET) made 4 × 4 requests; one budget makes 4.
    const unavailable = json(503, { errorCode: 'UNAVAILABLE' });
    script.set('GET /restapi/v2/accounts/42/envelopes/e1/documents/1', [
      unavailable,
      truncated,
      unavailable,
      truncated,
      unavailable,
      truncated,
      unavailable,
      truncated,
    ]);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'signrun-dl-'));
    const events: ClientEvent[] = [];
    const { client: c, timing } = client(events);
    const account = await c.login();
    seen.length = 0;
    const error = await account
      .downloadDocument('e1', '1', (body) => writeStreamAtomic(path.join(dir, 'doc.pdf'), body))
      .catch((e: unknown) => e);
    expect(error).toBeDefined();
    expect(seen).toHaveLength(defaultRetryPolicy.limit);
    // One backoff formula over the operation's attempts (full jitter, random 0.5): half of 250, 500, 1000.
    expect(timing.delays).toEqual([125, 250, 500]);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { reason: string }).reason)).toEqual([
      'status 503',
      'download broke off',
      'status 503',
    ]);
    expect(await readdir(dir)).toEqual([]);
    c.close();
  });

  it('a budget passed to several calls of one operation bounds them together, and ends with the last failure', async () => {
    script.set('GET /restapi/v2/login_information', [json(502, { errorCode: 'BAD_GATEWAY' })]);
    const { client: c, timing } = client();
    const attempts = new AttemptBudget(3);
    const first = await c.loginInformation({ attempts }).catch((e: unknown) => e);
    expect((first as ClientHttpError).status).toBe(502);
    expect(seen).toHaveLength(3);
    const second = await c.loginInformation({ attempts }).catch((e: unknown) => e);
    expect(second).toBe(first);
    expect(seen).toHaveLength(3);
    expect(timing.delays).toEqual([125, 250]);
    c.close();
  });
});

describe('passwords in a request body', () => {
  it('never come back in an error, even when the service echoes them', async () => {
    const echo: Answer = (_req, res, body) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errorCode: 'INVALID_REQUEST_PARAMETER', message: `refused: ${body}` }));
    };
    script.set('POST /restapi/v2/accounts', [echo]);
    const { client: c } = client();
    const error = (await c
      .createAccount({
        accountName: 'Acme',
        accountSettings: [],
        addressInformation: {},
        creditCardInformation: null,
        distributorCode: 'D',
        distributorPassword: 'distributor-secret-42',
        initialUser: {
          email: 'a@b.c',
          firstName: '',
          lastName: '',
          middleName: '',
          password: 'new-user-secret-43',
          suffixName: '',
          title: '',
          userName: 'a@b.c',
          userSettings: [],
        },
        planInformation: { planId: 'p' },
        referralInformation: null,
        socialAccountInformation: null,
      })
      .catch((e: unknown) => e)) as ClientHttpError;
    expect(error.serviceErrorCode).toBe('INVALID_REQUEST_PARAMETER');
    expect(error.message).toContain('Acme');
    expect(error.message).not.toContain('distributor-secret-42');
    expect(error.message).not.toContain('new-user-secret-43');
    expect(seen).toHaveLength(1);
    c.close();
  });
});

describe('rate limits answered with 400 (DocuSign error codes)', () => {
  it('a burst limit refusal is retried, even for envelope creation, after x-burstlimit-reset', async () => {
    const timing = fakeTiming();
    const reset = String(timing.now() / 1000 + 12);
    script.set('GET /restapi/v2/login_information', [
      json(200, { loginAccounts: [{ accountId: '42', isDefault: 'true' }] }),
    ]);
    script.set('POST /restapi/v2/accounts/42/envelopes', [
      json(
        400,
        { errorCode: 'BURST_APIINVOCATION_LIMIT_EXCEEDED', message: 'slow down' },
        { 'x-burstlimit-reset': reset },
      ),
      json(201, { envelopeId: 'env-after-burst' }),
    ]);
    const { client: c } = client([], timing);
    const account = await c.login();
    expect((await account.createEnvelope({ emailSubject: 's', status: 'sent' })).envelopeId).toBe('env-after-burst');
    expect(timing.delays).toEqual([12_000]);
    c.close();
  });

  it('a request error (never-retry) is not repeated', async () => {
    script.set('GET /restapi/v2/login_information', [json(400, { errorCode: 'INVALID_REQUEST_PARAMETER' }), login]);
    const { client: c, timing } = client();
    const error = (await c.loginInformation().catch((e: unknown) => e)) as ClientHttpError;
    expect(error.code).toBe('SR_HTTP_STATUS');
    expect(seen).toHaveLength(1);
    expect(timing.delays).toEqual([]);
    c.close();
  });
});
