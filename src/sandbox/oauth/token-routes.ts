import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { OAuthError, invalidGrant, invalidRequest } from './oauth-error.js';
import { verifyJwtAssertion } from './jwt-grant.js';
import { audienceOf } from './account-origin.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import type { GrantRecord, OAuthStore } from './oauth-store.js';
import type { AccountsRepository } from '../esignature/accounts/repository.js';

/** DocuSign's lifetimes: a JWT grant's token lives one hour, a person's (code grant) eight, a refresh token thirty days. */
export const jwtTokenLifetimeSeconds = 3600;
export const codeTokenLifetimeSeconds = 8 * 3600;
export const refreshTokenLifetimeSeconds = 30 * 24 * 3600;

export const jwtBearerGrantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** OAuth's token answer, as DocuSign's account server gives it. */
interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/**
 * DocuSign's account server's token and userinfo endpoints (not under
 * /restapi): `POST /oauth/token` for the JWT bearer grant (server-side
 * tools), the authorization code grant with PKCE S256 and the refresh token
 * grant (people); `GET /oauth/userinfo` for account discovery. Errors are
 * OAuth's `{ error, error_description }`. Tokens go in the API's
 * access_tokens table (sha256 only) and open /restapi/v2 and /restapi/v2.1
 * as `Authorization: Bearer`, until they expire by the sandbox's clock.
 */
export function tokenRoutes(store: OAuthStore): FastifyPluginAsync {
  return async (app) => {
    app.post('/oauth/token', async (request, reply) => {
      const { sandbox } = request.server;
      const body = formFields(request.body);
      const now = sandbox.clock.now();
      let answer: TokenAnswer;
      switch (body.grant_type) {
        case jwtBearerGrantType: {
          if (!body.assertion) throw invalidRequest('send the signed JWT as the assertion parameter');
          const origin = publicOrigin(request.server);
          const host = request.headers.host;
          const grant = await verifyJwtAssertion(body.assertion, {
            accounts: sandbox.accounts,
            store,
            audiences: host ? [audienceOf(origin), host] : [audienceOf(origin)],
            now,
          });
          const scope = grant.scopes.join(' ');
          answer = {
            access_token: store.issueAccessToken(
              { integratorKey: grant.integratorKey, userId: grant.user.id, scope },
              now,
              jwtTokenLifetimeSeconds,
            ),
            token_type: 'Bearer',
            expires_in: jwtTokenLifetimeSeconds,
            scope,
          };
          break;
        }
        case 'authorization_code':
          answer = peopleTokens(store, codeGrant(request, body, store, now), now);
          break;
        case 'refresh_token':
          answer = peopleTokens(store, refreshGrant(body, store, now, sandbox), now);
          break;
        default:
          throw new OAuthError(
            400,
            'unsupported_grant_type',
            `grant_type must be ${jwtBearerGrantType}, authorization_code or refresh_token`,
          );
      }
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return answer;
    });

    app.get('/oauth/userinfo', async (request, reply) => {
      const { sandbox } = request.server;
      const authorization = request.headers.authorization ?? '';
      const token = /^bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
      const holder = token ? store.accessToken(token, sandbox.clock.now()) : undefined;
      const user = holder && sandbox.accounts.user(holder.userId);
      const account = user && sandbox.accounts.account(user.accountId);
      if (!user || !account || account.status === 'deleted') {
        void reply.header('www-authenticate', 'Bearer error="invalid_token"');
        throw new OAuthError(401, 'invalid_token', 'send a live access token as Authorization: Bearer');
      }
      void reply.header('cache-control', 'no-store');
      return {
        sub: user.id,
        name: user.userName,
        email: user.email,
        created: new Date(user.createdAt).toISOString(),
        accounts: [
          {
            account_id: account.id,
            is_default: true,
            account_name: account.name,
            base_uri: publicOrigin(request.server),
          },
        ],
      };
    });
  };
}

/** A form (or JSON) body's string fields. */
function formFields(body: unknown): Record<string, string | undefined> {
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body))
    throw invalidRequest('send the parameters as an application/x-www-form-urlencoded body');
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

function peopleTokens(store: OAuthStore, grant: GrantRecord, now: number): TokenAnswer {
  return {
    access_token: store.issueAccessToken(grant, now, codeTokenLifetimeSeconds),
    token_type: 'Bearer',
    expires_in: codeTokenLifetimeSeconds,
    scope: grant.scope,
    refresh_token: store.issueRefreshToken(grant, now, refreshTokenLifetimeSeconds),
  };
}

/** Client credentials of a code-grant request: HTTP Basic `key:secret` (what DocuSign's SDKs send), or client_id / client_secret in the body. */
function clientCredentials(
  request: FastifyRequest,
  body: Record<string, string | undefined>,
): { clientId: string | undefined; secret: string | undefined } {
  const basic = /^basic\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
    return { clientId: decoded, secret: undefined };
  }
  return { clientId: body.client_id, secret: body.client_secret };
}

/**
 * authorization_code: the code is single use and lives five minutes. The
 * client proves who it is with PKCE (RFC 7636, S256: the code_verifier of
 * the code_challenge the flow started with), or with a secret key of the
 * integration key (POST /sandbox/integrations/{key}/secrets), as DocuSign's
 * SDKs send it (HTTP Basic). A code issued without a code_challenge needs
 * the secret.
 */
function codeGrant(
  request: FastifyRequest,
  body: Record<string, string | undefined>,
  store: OAuthStore,
  now: number,
): GrantRecord {
  if (!body.code) throw invalidRequest('send the code the redirect carried');
  const client = clientCredentials(request, body);
  const code = store.takeCode(body.code, now);
  if (!code.ok) throw invalidGrant(code.reason === 'expired' ? 'expired' : 'invalid_code');
  if (client.clientId !== undefined && client.clientId !== code.integratorKey)
    throw new OAuthError(401, 'invalid_client', 'the code was issued to another integration key');
  if (client.secret !== undefined && !store.isSecretOf(code.integratorKey, client.secret))
    throw new OAuthError(401, 'invalid_client', 'the secret key is not one of this integration key');
  if (body.redirect_uri !== undefined && body.redirect_uri !== code.redirectUri)
    throw invalidGrant('redirect_uri_mismatch');
  if (code.codeChallenge === null) {
    if (client.secret === undefined) {
      throw new OAuthError(
        401,
        'invalid_client',
        'send the integration key and a secret key as HTTP Basic (POST /sandbox/integrations/{key}/secrets makes one), or start the flow with code_challenge (PKCE S256)',
      );
    }
  } else {
    if (!body.code_verifier) throw invalidRequest('send the code_verifier whose S256 hash was the code_challenge');
    const computed = Buffer.from(createHash('sha256').update(body.code_verifier).digest('base64url'));
    const expected = Buffer.from(code.codeChallenge);
    if (computed.length !== expected.length || !timingSafeEqual(computed, expected))
      throw invalidGrant('code_verifier_mismatch');
  }
  return { integratorKey: code.integratorKey, userId: code.userId, scope: code.scope };
}

/** refresh_token: single use; each use hands out a new refresh token with the access token. */
function refreshGrant(
  body: Record<string, string | undefined>,
  store: OAuthStore,
  now: number,
  sandbox: { accounts: AccountsRepository },
): GrantRecord {
  if (!body.refresh_token) throw invalidRequest('send the refresh_token');
  const grant = store.takeRefreshToken(body.refresh_token, now);
  if (!grant.ok) throw invalidGrant(grant.reason === 'expired' ? 'expired' : 'invalid_refresh_token');
  const user = sandbox.accounts.user(grant.userId);
  if (!user || !user.activated) throw invalidGrant('user_not_found');
  return { integratorKey: grant.integratorKey, userId: grant.userId, scope: grant.scope };
}
