import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthStore } from './oauth-store.js';
import { oauthRedirectUris, type OAuthRedirectUris } from './redirect-uris.js';
import { OAuthError } from './oauth-error.js';
import { parseScopes } from './scopes.js';
import { consentErrorHtml, consentPageHtml, type ConsentRequest } from './consent-page.js';
import { readCookie } from '../platform/http/cookies.js';
import { ApiError } from '../platform/http/api-error.js';

/** An authorization code lives five minutes, as DocuSign's do (they are single use). */
export const codeLifetimeSeconds = 300;

const csrfCookie = 'sr_oauth_csrf';

/**
 * GET /oauth/auth: DocuSign's consent page (authorization code grant,
 * RFC 6749 4.1; PKCE S256 optional — without it the code is exchanged with a secret key).
 * POST /oauth/auth: the form's answer. Allow with a valid sign-in records
 * consent per (integration key, user, scope) — what the JWT grant checks —
 * and redirects (303) to redirect_uri with `code` and `state`; Deny
 * redirects with `error=access_denied`.
 *
 * Safety (RFC 6749 §4.1.2.1): the client and its redirect URI are checked
 * first, and until both are known good — a known integration key, and a
 * redirect_uri valid for it (redirect-uris.ts: the seed's, DocuSign's
 * consent page, loopback) — every error is an error page (400), never a
 * redirect: response_type, scope and PKCE errors go back only to such an
 * address. A key with registered redirect URIs takes no other; one without
 * (the built-in seed's) takes any http(s) address, but only once the person
 * has answered on the page, which names it. So the page redirects nobody
 * anywhere before a person acts on it (no open redirect). The form is CSRF-protected (token in a hidden field and in a
 * SameSite=Strict cookie, compared in constant time, plus the Origin header
 * when the browser sends one); the page cannot be framed (clickjacking) and
 * is not cached.
 */
export function consentRoutes(store: OAuthStore): FastifyPluginAsync {
  let redirectUris: OAuthRedirectUris;
  return async (app) => {
    redirectUris = oauthRedirectUris(app.sandbox.db);
    app.get<{ Querystring: Record<string, string | undefined> }>('/oauth/auth', async (request, reply) => {
      const consent = parseConsentRequest(request, request.query, reply);
      if (consent === undefined) return reply;
      const token = randomBytes(24).toString('base64url');
      void reply.header('set-cookie', cookie(request, token));
      return page(reply, 200, consentPageHtml(consent, token));
    });

    app.post('/oauth/auth', async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const fields = Object.fromEntries(
        Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      const consent = parseConsentRequest(request, fields, reply);
      if (consent === undefined) return reply;
      if (!csrfOk(request, fields['csrf_token'])) {
        return page(
          reply,
          403,
          consentErrorHtml(
            'Request refused',
            'This form was not sent from the consent page. Open the consent link again.',
          ),
        );
      }
      if (fields['decision'] !== 'allow') return redirectBack(reply, consent, { error: 'access_denied' });

      const { sandbox } = request.server;
      const email = fields['email'] ?? '';
      let userId: string;
      try {
        userId = (await sandbox.auth.verifyCredentials(email, fields['password'] ?? '', consent.clientId)).user.id;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return page(
          reply,
          401,
          consentPageHtml(consent, fields['csrf_token'] ?? '', 'The email or password is not right.', email),
        );
      }
      const now = sandbox.clock.now();
      store.recordConsent(consent.clientId, userId, consent.scopes, now);
      const code = store.issueCode(
        {
          integratorKey: consent.clientId,
          userId,
          scope: consent.scopes.join(' '),
          redirectUri: consent.redirectUri,
          codeChallenge: consent.codeChallenge ?? null,
        },
        now,
        codeLifetimeSeconds,
      );
      return redirectBack(reply, consent, { code });
    });
  };

  /** The request's parameters checked; undefined when an answer (page or redirect) was already sent. */
  function parseConsentRequest(
    request: FastifyRequest,
    params: Record<string, string | undefined>,
    reply: FastifyReply,
  ): ConsentRequest | undefined {
    const clientId = params['client_id'] ?? '';
    if (!request.server.sandbox.accounts.hasIntegratorKey(clientId)) {
      void page(
        reply,
        400,
        consentErrorHtml(
          'Unknown application',
          `The integration key ${JSON.stringify(clientId)} is not known to this sandbox (client_id).`,
        ),
      );
      return undefined;
    }
    const redirectUri = params['redirect_uri'] ?? '';
    let target: URL | undefined;
    try {
      target = new URL(redirectUri);
    } catch {
      target = undefined;
    }
    if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:') || target.hash !== '') {
      void page(
        reply,
        400,
        consentErrorHtml(
          'Bad redirect address',
          'redirect_uri must be an absolute http(s) address without a #fragment.',
        ),
      );
      return undefined;
    }
    // Known valid for this client: an error may be sent back to it (RFC 6749 §4.1.2.1).
    const known = redirectUris.allowed(clientId, redirectUri);
    if (!known && redirectUris.hasRegistered(clientId)) {
      void page(
        reply,
        400,
        consentErrorHtml(
          'Redirect address not registered',
          `redirect_uri is not one of the redirect URIs of the integration key ${JSON.stringify(clientId)} (oauthRedirectUris of the seed; DocuSign's consent page and loopback addresses are registered on every key).`,
        ),
      );
      return undefined;
    }
    const base = {
      clientId,
      redirectUri,
      state: params['state'],
      codeChallenge: params['code_challenge'],
      codeChallengeMethod: params['code_challenge_method'],
    };
    const back = (error: string, description: string) => {
      // Not a known redirect URI of the client (a key without registered ones): the error is shown, not sent there.
      if (!known) void page(reply, 400, consentErrorHtml('Bad request', `${error}: ${description}`));
      else void redirectBack(reply, { ...base, scopes: [] }, { error, error_description: description });
      return undefined;
    };
    if (params['response_type'] !== 'code') return back('unsupported_response_type', 'response_type must be code');
    if (base.codeChallenge !== undefined && (base.codeChallengeMethod ?? 'plain') !== 'S256')
      return back('invalid_request', 'code_challenge_method must be S256');
    try {
      return { ...base, scopes: parseScopes(params['scope']) };
    } catch (error) {
      if (error instanceof OAuthError) return back(error.error, error.description ?? '');
      throw error;
    }
  }
}

function redirectBack(reply: FastifyReply, consent: ConsentRequest, answer: Record<string, string>): FastifyReply {
  const target = new URL(consent.redirectUri);
  for (const [name, value] of Object.entries(answer)) target.searchParams.set(name, value);
  if (consent.state !== undefined) target.searchParams.set('state', consent.state);
  return reply.header('cache-control', 'no-store').redirect(target.toString(), 303);
}

function page(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header(
      'content-security-policy',
      // form-action: Chrome applies it to the redirect that follows the POST (to any redirect_uri).
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(html);
}

function cookie(request: FastifyRequest, token: string): string {
  return `${csrfCookie}=${token}; Path=/oauth; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`;
}

function csrfOk(request: FastifyRequest, sent: string | undefined): boolean {
  const expected = readCookie(request.headers.cookie, csrfCookie);
  if (!expected || !sent) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  const origin = request.headers.origin;
  return origin === undefined || origin === 'null' || origin === `${request.protocol}://${request.headers.host ?? ''}`;
}
