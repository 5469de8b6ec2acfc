import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';
import { makeSecret } from '../../src/secret.js';
import { OAuthSession } from '../../src/client/oauth/oauth-session.js';
import { parseOAuthBase, type OAuthBase } from '../../src/client/oauth/oauth-base.js';
import { consentUrl } from '../../src/client/oauth/consent-url.js';
import { grantError } from '../../src/client/oauth/grant-errors.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { envelopeDefinitionOf } from '../../src/runner/envelopes/envelope-definition.js';
import { envelopeFixture } from '../runner/fixtures.js';
import { newKeyPair } from '../sandbox/helpers/jwt.js';

// The token provider and session against the real sandbox's account server
// (its request log counts the token requests); the provider's own clock is
// the test's, so renewal before expiry needs no waiting.

let sandbox: RunningSandbox;
const requests: string[] = [];
let base: OAuthBase;
let privateKey: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, log: (line) => requests.push(line) });
  base = parseOAuthBase(sandbox.origin)!;
  privateKey = (await newKeyPair(sandbox.origin)).privateKey;
});
afterAll(async () => sandbox.close());

function session(now?: () => number): OAuthSession {
  return new OAuthSession(
    {
      integrationKey: 'sandbox-integrator-key',
      userId: defaultSeedIds.userId,
      privateKey: makeSecret(privateKey),
      base,
    },
    now ? { now } : {},
  );
}

async function counted<T>(action: () => Promise<T>): Promise<{ result: T; tokens: number; userinfo: number }> {
  const from = requests.length;
  const result = await action();
  const lines = requests.slice(from);
  return {
    result,
    tokens: lines.filter((l) => l.startsWith('POST /oauth/token ')).length,
    userinfo: lines.filter((l) => l.startsWith('GET /oauth/userinfo ')).length,
  };
}

describe('JwtTokenProvider', () => {
  it('mints once for many callers at the same moment, and keeps the token while it has margin left', async () => {
    const s = session();
    const { result, tokens } = await counted(() => Promise.all(Array.from({ length: 20 }, () => s.tokens.token())));
    expect(tokens).toBe(1);
    expect(new Set(result.map((t) => t.reveal())).size).toBe(1);
    expect((await counted(() => s.tokens.token())).tokens).toBe(0);
  });

  it('renews before expiry (margin), not after', async () => {
    let now = Date.now();
    const s = session(() => now);
    const first = await s.tokens.token();
    const expiresAt = s.tokens.expiresAt!;
    expect(expiresAt - now).toBe(3600_000);
    now = expiresAt - 5 * 60_000 - 1; // just outside the 5-minute margin: still the same token
    expect((await s.tokens.token()).reveal()).toBe(first.reveal());
    now = expiresAt - 5 * 60_000 + 1; // inside the margin: a new one, before the service would refuse the old
    const { result, tokens } = await counted(() => s.tokens.token());
    expect(tokens).toBe(1);
    expect(result.reveal()).not.toBe(first.reveal());
  });

  it('renews once when many calls report the same token refused, and not again for a token already replaced', async () => {
    const s = session();
    const old = await s.tokens.token();
    const { result, tokens } = await counted(() => Promise.all(Array.from({ length: 8 }, () => s.tokens.renew(old))));
    expect(tokens).toBe(1);
    expect(new Set(result.map((t) => t.reveal())).size).toBe(1);
    expect(result[0]!.reveal()).not.toBe(old.reveal());
    expect((await counted(() => s.tokens.renew(old))).tokens).toBe(0);
  });

  it('never shows the token or the key: the provider, the session and the token print as redacted', async () => {
    const s = session();
    const token = await s.tokens.token();
    const shown = [
      inspect(token),
      JSON.stringify({ token }),
      inspect(s, { depth: 5 }),
      inspect(s.tokens, { depth: 5 }),
    ];
    for (const text of shown) {
      expect(text).not.toContain(token.reveal());
      expect(text).not.toContain(privateKey.split('\n')[1]!);
    }
  });
});

describe('OAuthSession and the client', () => {
  it('asks userinfo once however many logins, and the client logs in to the account at its base_uri on v2.1', async () => {
    const s = session();
    const client = EsignatureClient.create({
      rootUrl: `${sandbox.origin}/restapi/v2.1`,
      auth: { kind: 'oauth', session: s },
    });
    try {
      const { result, tokens, userinfo } = await counted(async () => {
        const [a] = await Promise.all([client.login(), client.login(), s.account()]);
        return a;
      });
      expect(tokens).toBe(1);
      expect(userinfo).toBe(1);
      expect(result.baseUrl).toBe(`${sandbox.origin}/restapi/v2.1/accounts/${result.accountId}`);
      expect(result.userId).toBe(defaultSeedIds.userId);
      // A call with the session's token works on the API itself.
      const from = requests.length;
      await result.getTemplate('3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01');
      expect(requests.slice(from).some((l) => /^GET \/restapi\/v2\.1\/accounts\/\S+\/templates\/\S+ 200/.test(l))).toBe(
        true,
      );
    } finally {
      client.close();
    }
  });

  it('a configured account id the user does not have is SR_AUTH_ACCOUNT_NOT_FOUND, listing theirs', async () => {
    const s = new OAuthSession({
      integrationKey: 'sandbox-integrator-key',
      userId: defaultSeedIds.userId,
      privateKey: makeSecret(privateKey),
      base,
      accountId: 'not-an-account',
    });
    await expect(s.account()).rejects.toMatchObject({
      code: 'SR_AUTH_ACCOUNT_NOT_FOUND',
      message: expect.stringContaining('Sandbox Corp'),
    });
  });

  it('an OAuth base that is not an account server is SR_AUTH_SERVER_UNREACHABLE', async () => {
    const s = new OAuthSession({
      integrationKey: 'sandbox-integrator-key',
      userId: defaultSeedIds.userId,
      privateKey: makeSecret(privateKey),
      base: { origin: `${sandbox.origin}/restapi`, audience: base.audience },
    });
    await expect(s.account()).rejects.toMatchObject({ code: 'SR_AUTH_SERVER_UNREACHABLE' });
  });
});

describe('the token layer', () => {
  it('an envelope creation refused 401 with an expired token is sent once more with a renewed one, and created once', async () => {
    // A sandbox whose clock the test moves past the token's hour.
    let now = Date.now();
    const clocked = await startSandbox({ port: 0, log: (line) => requests.push(line) }, { clock: { now: () => now } });
    const client = EsignatureClient.create({
      rootUrl: `${clocked.origin}/restapi/v2.1`,
      auth: {
        kind: 'oauth',
        session: new OAuthSession({
          integrationKey: 'sandbox-integrator-key',
          userId: defaultSeedIds.userId,
          privateKey: makeSecret((await newKeyPair(clocked.origin)).privateKey),
          base: parseOAuthBase(clocked.origin)!,
        }),
      },
    });
    try {
      const account = await client.login();
      now += 3600_000 + 30_000;
      const from = requests.length;
      const definition = await envelopeDefinitionOf(envelopeFixture('renewed', {}));
      const { envelopeId } = await account.createEnvelope(definition);
      const lines = requests.slice(from);
      expect(
        lines
          .filter((l) => l.startsWith('POST /restapi/v2.1/accounts/:accountId/envelopes '))
          .map((l) => l.split(' ')[2]),
      ).toEqual(['401', '201']);
      expect(lines.filter((l) => l.startsWith('POST /oauth/token ')).length).toBe(1);
      const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
      expect(listed.envelopes?.map((e) => e.envelopeId)).toEqual([envelopeId]);
    } finally {
      client.close();
      await clocked.close();
    }
  });
});

describe('OAuth base, consent URL and grant errors (no server)', () => {
  it('parses DocuSign host names and sandbox origins; aud is the host with its port', () => {
    expect(parseOAuthBase('account-d.docusign.com')).toEqual({
      origin: 'https://account-d.docusign.com',
      audience: 'account-d.docusign.com',
    });
    expect(parseOAuthBase('https://account.docusign.com/')).toEqual({
      origin: 'https://account.docusign.com',
      audience: 'account.docusign.com',
    });
    expect(parseOAuthBase('http://127.0.0.1:8080')).toEqual({
      origin: 'http://127.0.0.1:8080',
      audience: '127.0.0.1:8080',
    });
    expect(parseOAuthBase('ftp://x')).toBeUndefined();
    expect(parseOAuthBase('https://account-d.docusign.com/oauth/token')).toBeUndefined();
  });

  it('the consent URL is DocuSign’s /oauth/auth with the scopes, the key and the redirect URI', () => {
    expect(consentUrl(parseOAuthBase('account-d.docusign.com')!, 'ik-1', 'https://app.example.com/cb?x=1')).toBe(
      'https://account-d.docusign.com/oauth/auth?response_type=code&scope=signature%20impersonation&client_id=ik-1&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Fx%3D1',
    );
  });

  it('each refusal has its code; issuer_not_found on demo points at production and back', () => {
    const ctx = { base: parseOAuthBase('account-d.docusign.com')!, integrationKey: 'ik', userId: 'u' };
    const of = (error: string, description?: string) =>
      grantError(400, { error, ...(description ? { error_description: description } : {}) }, ctx);
    expect(of('consent_required').code).toBe('SR_AUTH_CONSENT_REQUIRED');
    const unknown = of('invalid_grant', 'issuer_not_found');
    expect(unknown.code).toBe('SR_AUTH_INTEGRATION_KEY_UNKNOWN');
    expect(unknown.message).toContain('DOCUSIGN_OAUTH_BASE=account.docusign.com');
    expect(of('invalid_grant', 'no_valid_keys_or_signatures').code).toBe('SR_AUTH_KEY_MISMATCH');
    expect(of('invalid_grant', 'user_not_found').code).toBe('SR_AUTH_USER_UNKNOWN');
    expect(of('invalid_grant', 'expired').code).toBe('SR_AUTH_CLOCK_SKEW');
    expect(of('invalid_grant', 'iat_in_future').code).toBe('SR_AUTH_CLOCK_SKEW');
    expect(of('invalid_scope').code).toBe('SR_AUTH_GRANT_REFUSED');
  });
});
