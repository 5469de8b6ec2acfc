import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { JsonTooDeepError, maxJsonDepth, parseJsonBody } from '../../src/sandbox/platform/http/json-body.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { createActiveSubsidiary } from './helpers/accounts.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf, seedCredentials } from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Issue 14, item 10 (the sandbox's part): answers that were 500s or limits
// that did not hold, each found by trying as an attacker would.

let sandbox: RunningSandbox;
let pdf: Buffer;
beforeAll(async () => {
  sandbox = await injectedSandbox();
  pdf = await makePdf(1);
});
afterAll(() => sandbox.close());

/** An embedded signer's one-time signing URL on a new envelope of the account at baseUrl. */
async function viewUrl(baseUrl: string, credentials = seedCredentials): Promise<string> {
  const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(credentials), body: documentEnvelope(pdf) });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const view = await call(`${baseUrl}/envelopes/${created.json.envelopeId}/views/recipient`, {
    headers: authHeader(credentials),
    body: {
      userName: 'Jean Français',
      email: 'jean@example.com',
      clientUserId: 'emp-1',
      authenticationMethod: 'none',
      returnUrl: `${sandbox.origin}/signing/done`,
    },
  });
  expect(view.status, JSON.stringify(view.json)).toBe(201);
  return view.json.url as string;
}

describe('signing page assets', () => {
  it('answers 404 to names of Object.prototype members (was 500)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      const r = await sandboxFetch(`${sandbox.origin}/signing/assets/${name}`);
      expect(r.status, name).toBe(404);
    }
    expect((await sandboxFetch(`${sandbox.origin}/signing/assets/signing.js`)).status).toBe(200);
  });
});

describe('JSON nesting depth', () => {
  const nested = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
  const accountBody = (addressInformation: string) =>
    `{"accountName":"Deep Ltd","distributorCode":"${seedCredentials.distributorCode}",` +
    `"distributorPassword":"${seedCredentials.distributorPassword}",` +
    `"initialUser":{"email":"deep@example.com","password":"pw-deep-1"},"planInformation":{"planId":"sandbox-plan"},` +
    `"addressInformation":${addressInformation}}`;

  it('answers a 50,000-deep body on POST /accounts with 400 INVALID_REQUEST_BODY (was 500: stack overflow)', async () => {
    const r = await call(`${sandbox.rootUrl}/accounts`, {
      headers: { ...authHeader(), 'content-type': 'application/json' },
      raw: accountBody(nested(50_000)),
    });
    expectApiError(r, 400, 'INVALID_REQUEST_BODY');
    expect(r.json.message).toContain(`${maxJsonDepth} levels`);
  });

  it('answers the same to an envelope definition nested too deep, as JSON or as a multipart part', async () => {
    const { baseUrl } = await login(sandbox.rootUrl);
    const deep = `{"emailSubject":"x","status":"created","customFields":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const json = await call(`${baseUrl}/envelopes`, {
      headers: { ...authHeader(), 'content-type': 'application/json' },
      raw: deep,
    });
    expectApiError(json, 400, 'INVALID_REQUEST_BODY');
    const boundary = 'deep-boundary';
    const multipart = await call(`${baseUrl}/envelopes`, {
      headers: { ...authHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      raw: `--${boundary}\r\nContent-Type: application/json\r\nContent-Disposition: form-data; name="envelope_definition"\r\n\r\n${deep}\r\n--${boundary}--\r\n`,
    });
    expectApiError(multipart, 400, 'INVALID_REQUEST_BODY');
    expect(multipart.json.message).toContain(`${maxJsonDepth} levels`);
  });

  it('counts only brackets outside strings, and accepts exactly the limit', () => {
    expect(parseJsonBody(Buffer.from(nested(maxJsonDepth - 1, '[]')))).toBeTypeOf('object');
    expect(() => parseJsonBody(Buffer.from(nested(maxJsonDepth, '[]')))).toThrow(JsonTooDeepError);
    const inString = JSON.stringify({ note: '{['.repeat(10_000) });
    expect(parseJsonBody(Buffer.from(inString))).toEqual(JSON.parse(inString));
  });
});

describe('form bodies', () => {
  it('refuses a 2 MB form with 413 where the limit is 64 KiB (was accepted, and signed)', async () => {
    const { baseUrl } = await login(sandbox.rootUrl);
    const { sessionUrl, cookie, csrf } = await openSigningLink(await viewUrl(baseUrl));
    const big = await postForm(`${sessionUrl}/sign`, cookie, {
      signatureName: 'Jean',
      csrfToken: csrf,
      padding: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errorCode: string }).errorCode).toBe('REQUEST_ENTITY_TOO_LARGE');
    // A form of ordinary size still signs.
    const small = await postForm(`${sessionUrl}/sign`, cookie, { signatureName: 'Jean', csrfToken: csrf });
    expect(small.status).toBe(303);
  });
});

describe('signing links of a deleted account', () => {
  it('open nothing once the account is deleted: unused links, outbox links and open sessions alike', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'Doomed Ltd', 'doomed@example.com');
    const { baseUrl } = await login(sandbox.rootUrl, sub.credentials);
    const unused = await viewUrl(baseUrl, sub.credentials as typeof seedCredentials);
    const session = await openSigningLink(await viewUrl(baseUrl, sub.credentials as typeof seedCredentials));
    const remote = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(sub.credentials),
      body: documentEnvelope(pdf, {
        recipients: { signers: [{ name: 'Remote', email: 'remote@example.com', recipientId: '1', routingOrder: '1' }] },
      }),
    });
    expect(remote.status).toBe(201);
    const outbox = await call(`${sandbox.origin}/sandbox/outbox?format=json&envelopeId=${remote.json.envelopeId}`);
    const outboxLink = (outbox.json.messages as Array<{ links: string[] }>)[0]!.links[0]!;
    expect((await sandboxFetch(session.sessionUrl, { headers: { cookie: session.cookie } })).status).toBe(200);

    const deleted = await call(baseUrl, { method: 'DELETE', headers: authHeader(sub.credentials) });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(200);

    expect((await sandboxFetch(unused, { redirect: 'manual' })).status).toBe(404);
    expect((await sandboxFetch(outboxLink, { redirect: 'manual' })).status).toBe(404);
    expect((await sandboxFetch(session.sessionUrl, { headers: { cookie: session.cookie } })).status).toBe(404);
    const sign = await postForm(`${session.sessionUrl}/sign`, session.cookie, {
      signatureName: 'Too Late',
      csrfToken: session.csrf,
    });
    expect(sign.status).toBe(404);
  });
});
