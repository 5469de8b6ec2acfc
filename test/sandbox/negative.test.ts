import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { Clock } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf, seedCredentials } from './helpers/api.js';
import { createActiveSubsidiary } from './helpers/accounts.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// A clock the test moves, so token expiry needs no sleeping.
let now = Date.parse('2026-11-20T10:00:00Z');
const clock: Clock = { now: () => now };

let sandbox: RunningSandbox;
let baseUrl: string;
let pdf: Buffer;
beforeAll(async () => {
  sandbox = await injectedSandbox({ bodyLimitBytes: 256 * 1024, viewTokenTtlSeconds: 300 }, { clock });
  baseUrl = (await login(sandbox.rootUrl)).baseUrl;
  pdf = await makePdf(1);
});
afterAll(async () => {
  await sandbox.close();
});

async function createEnvelope(
  body: Record<string, unknown> = documentEnvelope(pdf),
  credentials = seedCredentials,
  url = baseUrl,
) {
  const r = await call(`${url}/envelopes`, { headers: authHeader(credentials), body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.envelopeId as string;
}

describe('authentication', () => {
  it('refuses a wrong password with 401 USER_AUTHENTICATION_FAILED', async () => {
    const r = await call(`${sandbox.rootUrl}/login_information`, {
      headers: authHeader({ ...seedCredentials, password: 'wrong' }),
    });
    expectApiError(r, 401, 'USER_AUTHENTICATION_FAILED');
  });

  it('refuses an unknown integrator key, even with the right password', async () => {
    const r = await call(`${sandbox.rootUrl}/login_information`, {
      headers: authHeader({ ...seedCredentials, integratorKey: 'nope' }),
    });
    expectApiError(r, 401, 'USER_AUTHENTICATION_FAILED');
  });

  it('refuses a missing or unreadable header', async () => {
    expectApiError(await call(`${sandbox.rootUrl}/login_information`), 401, 'USER_AUTHENTICATION_FAILED');
    expectApiError(
      await call(`${sandbox.rootUrl}/login_information`, { headers: { 'X-DocuSign-Authentication': 'not json' } }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
  });

  it('never echoes the password in an error', async () => {
    const r = await call(`${sandbox.rootUrl}/login_information`, {
      headers: authHeader({ ...seedCredentials, password: 'hunter2-secret' }),
    });
    expect(r.bytes.toString()).not.toContain('hunter2-secret');
  });
});

describe('account isolation', () => {
  it('answers a foreign envelope exactly as a missing one', async () => {
    const other = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'Isolated Ltd', 'iso@example.com');
    const otherSession = await login(sandbox.rootUrl, other.credentials);
    const foreignId = await createEnvelope(
      documentEnvelope(pdf),
      other.credentials as typeof seedCredentials,
      otherSession.baseUrl,
    );

    // Through the caller's own account path: same answer for foreign and missing ids.
    for (const path of ['', '/recipients', '/documents', '/documents/1', '/documents/certificate']) {
      const foreign = await call(`${baseUrl}/envelopes/${foreignId}${path}`, { headers: authHeader() });
      const missing = await call(`${baseUrl}/envelopes/${randomUUID()}${path}`, { headers: authHeader() });
      expectApiError(foreign, 400, 'ENVELOPE_DOES_NOT_EXIST');
      expect(foreign.json).toEqual(missing.json);
    }
    // Through the other account's path: not a member, same answer as a made-up account.
    const viaPath = await call(`${otherSession.baseUrl}/envelopes/${foreignId}`, { headers: authHeader() });
    const madeUp = await call(`${sandbox.rootUrl}/accounts/${randomUUID()}/envelopes/${foreignId}`, {
      headers: authHeader(),
    });
    expectApiError(viaPath, 400, 'USER_LACKS_MEMBERSHIP');
    expect(viaPath.json).toEqual(madeUp.json);
    // The listing never shows it either.
    const listed = await call(`${baseUrl}/envelopes?envelope_ids=${foreignId}`, { headers: authHeader() });
    expect(listed.json.envelopes).toEqual([]);
    // Nor can it be voided.
    const voided = await call(`${baseUrl}/envelopes/${foreignId}`, {
      method: 'PUT',
      headers: authHeader(),
      body: { status: 'voided', voidedReason: 'x' },
    });
    expectApiError(voided, 400, 'ENVELOPE_DOES_NOT_EXIST');
  });

  it('a subsidiary user cannot delete its distributor, and the distributor cannot delete the subsidiary', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'Sub Two', 'sub2@example.com');
    const main = await login(sandbox.rootUrl);
    expectApiError(
      await call(main.baseUrl, { method: 'DELETE', headers: authHeader(sub.credentials) }),
      400,
      'USER_LACKS_MEMBERSHIP',
    );
    const byParent = await call(`${sandbox.rootUrl}/accounts/${sub.accountId}`, {
      method: 'DELETE',
      headers: authHeader(),
    });
    expectApiError(byParent, 400, 'ACCOUNT_LACKS_PERMISSIONS');
  });
});

describe('accounts', () => {
  it('refuses wrong distributor credentials', async () => {
    const r = await call(`${sandbox.rootUrl}/accounts`, {
      headers: authHeader(),
      body: {
        accountName: 'Nope',
        distributorCode: seedCredentials.distributorCode,
        distributorPassword: 'wrong',
        initialUser: { email: 'n@example.com', password: 'x' },
        planInformation: { planId: 'sandbox-plan' },
      },
    });
    expectApiError(r, 400, 'ACCOUNT_LACKS_PERMISSIONS');
  });

  it('a deleted account can no longer log in, and its envelopes are unreachable', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'Doomed', 'doomed@example.com');
    const session = await login(sandbox.rootUrl, sub.credentials);
    expect((await call(session.baseUrl, { method: 'DELETE', headers: authHeader(sub.credentials) })).status).toBe(200);
    expectApiError(
      await call(`${sandbox.rootUrl}/login_information`, { headers: authHeader(sub.credentials) }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
    expectApiError(
      await call(`${sandbox.rootUrl}/accounts/${sub.accountId}`, { headers: authHeader() }),
      400,
      'USER_LACKS_MEMBERSHIP',
    );
  });

  it('an activation link works once', async () => {
    const created = await call(`${sandbox.rootUrl}/accounts`, {
      headers: authHeader(),
      body: {
        accountName: 'Once',
        distributorCode: seedCredentials.distributorCode,
        distributorPassword: seedCredentials.distributorPassword,
        initialUser: { email: 'once@example.com', password: 'pw-once' },
        planInformation: { planId: 'sandbox-plan' },
      },
    });
    const outbox = await call(`${sandbox.origin}/sandbox/outbox?format=json&accountId=${created.json.accountId}`);
    const link = outbox.json.messages[0].links[0] as string;
    expect((await sandboxFetch(link)).status).toBe(200);
    expect((await sandboxFetch(link)).status).toBe(410);
    expect((await sandboxFetch(`${sandbox.origin}/sandbox/activate/forged`)).status).toBe(404);
  });
});

describe('views', () => {
  it('refuses a view for a recipient created without clientUserId (UNKNOWN_ENVELOPE_RECIPIENT)', async () => {
    const envelopeId = await createEnvelope(
      documentEnvelope(pdf, {
        recipients: { signers: [{ name: 'Remote', email: 'remote@example.com', recipientId: '1' }] },
      }),
    );
    const r = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        userName: 'Remote',
        email: 'remote@example.com',
        clientUserId: 'anything',
        returnUrl: 'https://x.example/',
      },
    });
    expectApiError(r, 400, 'UNKNOWN_ENVELOPE_RECIPIENT');
    // And the remote signer was "emailed" instead.
    const outbox = await call(`${sandbox.origin}/sandbox/outbox?format=json&envelopeId=${envelopeId}`);
    expect(outbox.json.messages.map((m: { to: string; subject: string }) => [m.to, m.subject])).toEqual([
      ['remote@example.com', 'Please sign'],
    ]);
  });

  it('refuses a recipient whose routing order has not come (RECIPIENT_NOT_IN_SEQUENCE)', async () => {
    const envelopeId = await createEnvelope();
    const r = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        userName: 'Marie Curie',
        email: 'marie@example.com',
        clientUserId: 'mgr-1',
        returnUrl: 'https://x.example/',
      },
    });
    expectApiError(r, 400, 'RECIPIENT_NOT_IN_SEQUENCE');
  });

  it('refuses a wrong clientUserId and a missing returnUrl', async () => {
    const envelopeId = await createEnvelope();
    const wrong = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        userName: 'Jean Français',
        email: 'jean@example.com',
        clientUserId: 'not-his',
        returnUrl: 'https://x.example/',
      },
    });
    expectApiError(wrong, 400, 'UNKNOWN_ENVELOPE_RECIPIENT');
    const noReturn = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: { userName: 'Jean Français', email: 'jean@example.com', clientUserId: 'emp-1' },
    });
    expectApiError(noReturn, 400, 'INVALID_REQUEST_PARAMETER');
  });

  it('view tokens are single use, expire after the TTL, and forged ones are unknown', async () => {
    const envelopeId = await createEnvelope();
    const askView = async () => {
      const r = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
        headers: authHeader(),
        body: {
          userName: 'Jean Français',
          email: 'jean@example.com',
          clientUserId: 'emp-1',
          returnUrl: 'https://x.example/back',
        },
      });
      expect(r.status).toBe(201);
      return (r.json.url as string).split('/signing/')[1]!;
    };
    const services = sandbox.app.sandbox;
    const token = await askView();
    const first = services.consumeViewToken(token);
    expect(first).toMatchObject({ ok: true, envelopeId, recipientId: '1', returnUrl: 'https://x.example/back' });
    expect(services.consumeViewToken(token)).toEqual({
      ok: false,
      reason: 'used',
      returnUrl: 'https://x.example/back',
    });

    const late = await askView();
    now += 301_000;
    expect(services.consumeViewToken(late)).toEqual({
      ok: false,
      reason: 'expired',
      returnUrl: 'https://x.example/back',
    });
    expect(services.consumeViewToken('forged-token')).toEqual({ ok: false, reason: 'unknown' });
    // The database holds only hashes of tokens.
    const stored = services.db.prepare('SELECT token_hash FROM view_tokens').all() as Array<{ token_hash: string }>;
    expect(stored.some((row) => row.token_hash === late)).toBe(false);
  });
});

describe('bodies', () => {
  it('refuses malformed JSON with INVALID_REQUEST_BODY', async () => {
    const r = await call(`${baseUrl}/envelopes`, {
      headers: { ...authHeader(), 'content-type': 'application/json' },
      raw: '{"emailSubject": ',
    });
    expectApiError(r, 400, 'INVALID_REQUEST_BODY');
  });

  it('refuses an oversized body with 413, before reading it whole', async () => {
    const big = await makePdf(1, 'big', 300 * 1024);
    const r = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: documentEnvelope(big) });
    expectApiError(r, 413, 'REQUEST_ENTITY_TOO_LARGE');
  });

  it('refuses a document that is not a PDF, bad base64, and no documents at all', async () => {
    const notPdf = documentEnvelope(pdf, {
      // A kind the sandbox does not convert (.txt, .html and .docx are: converted-documents.test.ts).
      documents: [{ documentId: '1', name: 'a.xlsx', documentBase64: Buffer.from('hello').toString('base64') }],
    });
    expectApiError(
      await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: notPdf }),
      400,
      'FORMAT_CONVERSION_ERROR',
    );
    const badBase64 = documentEnvelope(pdf, { documents: [{ documentId: '1', name: 'a.pdf', documentBase64: '!!!' }] });
    expectApiError(
      await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: badBase64 }),
      400,
      'INVALID_REQUEST_BODY',
    );
    expectApiError(
      await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: { emailSubject: 'x', status: 'sent' } }),
      400,
      'INVALID_REQUEST_BODY',
    );
  });

  it('refuses tabs on a missing document or page', async () => {
    const tabs = (documentId: string, pageNumber: string) =>
      documentEnvelope(pdf, {
        recipients: {
          signers: [
            {
              name: 'A',
              email: 'a@example.com',
              recipientId: '1',
              clientUserId: 'a',
              tabs: { signHereTabs: [{ documentId, pageNumber, xPosition: '1', yPosition: '1' }] },
            },
          ],
        },
      });
    expectApiError(
      await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: tabs('9', '1') }),
      400,
      'INVALID_DOCUMENT_ID',
    );
    expectApiError(
      await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: tabs('1', '5') }),
      400,
      'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT',
    );
  });

  it('refuses an unknown template and an unknown role', async () => {
    const unknown = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId: randomUUID(),
        status: 'sent',
        emailSubject: 'x',
        templateRoles: [{ roleName: 'employee', name: 'A', email: 'a@example.com' }],
      },
    });
    expectApiError(unknown, 400, 'TEMPLATE_ID_INVALID');
    expectApiError(
      await call(`${baseUrl}/templates/${randomUUID()}`, { headers: authHeader() }),
      400,
      'TEMPLATE_ID_INVALID',
    );
    const role = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId: '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
        status: 'sent',
        templateRoles: [{ roleName: 'ceo', name: 'A', email: 'a@example.com' }],
      },
    });
    expectApiError(role, 400, 'INVALID_REQUEST_BODY');
  });

  it('refuses a listing without from_date, envelope_ids or transaction_ids', async () => {
    expectApiError(await call(`${baseUrl}/envelopes`, { headers: authHeader() }), 400, 'INVALID_REQUEST_PARAMETER');
  });

  it('answers unknown paths with 404 in DocuSign shape', async () => {
    expectApiError(await call(`${sandbox.rootUrl}/nothing/here`, { headers: authHeader() }), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('malformed ids', () => {
  it('answers INVALID_REQUEST_PARAMETER for an id that cannot be one, after authentication', async () => {
    expectApiError(
      await call(`${baseUrl}/envelopes/not-a-guid`, { headers: authHeader() }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
    expectApiError(
      await call(`${baseUrl}/envelopes/${randomUUID()}/documents/abc`, { headers: authHeader() }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
    expectApiError(await call(`${baseUrl}/envelopes/not-a-guid`), 401, 'USER_AUTHENTICATION_FAILED');
  });
});
