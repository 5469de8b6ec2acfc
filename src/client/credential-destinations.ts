import type http from 'node:http';
import fetch, { type Response } from 'node-fetch';
import { SignrunError } from '../errors/signrun-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { docusignAccountServers } from './oauth/oauth-base.js';

/**
 * The one rule for where signrun's credentials may go (issue 25). A
 * credential — the legacy header's password, a bearer token, the JWT grant's
 * signed assertion — is sent only to:
 *
 * - the address the user configured (DOCUSIGN_ROOT_URL, DOCUSIGN_OAUTH_BASE),
 *   and redirects within its origin (scheme, host and port); a redirect to
 *   any other origin is refused, never followed ({@link fetchWithinOrigin});
 * - a server the configured one names for the account (userinfo's `base_uri`,
 *   login_information's `baseUrl`) when that address passes
 *   {@link checkServerAddress}: https (plain http only on this machine's
 *   loopback, or on the very origin the user configured), no user info,
 *   query or fragment, and — when the configured server is DocuSign's — a
 *   DocuSign domain (`*.docusign.net`, `*.docusign.com`).
 *
 * What is displayed or stored of an address goes through `shownUrl`
 * (src/secret.ts): no user info, no query, no fragment.
 */

/** Redirects followed for one call before it is given up as a loop. */
const maxRedirects = 5;

/** The domains of DocuSign's own servers: account servers, API servers of every region. */
const docusignDomains = ['docusign.net', 'docusign.com'];

/** True for a host of DocuSign's own domains (`demo.docusign.net`, `account-d.docusign.com`, `na3.docusign.net`). */
export function isDocuSignHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return docusignDomains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** True for an address on this machine: 127.0.0.0/8, localhost, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** What {@link checkServerAddress} checks an address against. */
export interface ConfiguredServer {
  /** The address the user configured (an origin or a root URL): DOCUSIGN_OAUTH_BASE or DOCUSIGN_ROOT_URL. */
  configured: string;
  /** What named the address, for the message: `userinfo's base_uri`, `login_information's baseUrl`. */
  namedBy: string;
}

/**
 * `address` (a server the configured one named for the account) if
 * credentials may go there; SR_BASE_URI_REFUSED otherwise. The address is
 * never shown whole: only its scheme and host, since it came from the
 * service and may carry what it should not.
 */
export function checkServerAddress(address: string, server: ConfiguredServer): URL {
  const configured = new URL(server.configured);
  const refuse = (why: string, shown: string): never => {
    throw new SignrunError(
      'SR_BASE_URI_REFUSED',
      `${server.namedBy} (${shown}), given by ${configured.origin}, is not a server signrun sends credentials to: ${why}`,
      { details: { namedBy: server.namedBy, configured: configured.origin, address: shown } },
    );
  };
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return refuse('it is not an absolute address', 'not a URL');
  }
  const shown = `${url.protocol}//${url.host}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('it is not an http(s) address', shown);
  if (url.username !== '' || url.password !== '') return refuse('it carries a user name or password', shown);
  if (url.search !== '' || url.hash !== '') return refuse('it carries a query or a fragment', shown);
  const sameOrigin = url.origin === configured.origin;
  if (url.protocol === 'http:' && !sameOrigin && !isLoopbackHost(url.hostname))
    return refuse('plain http is accepted only on this machine (loopback) or on the configured server itself', shown);
  const configuredIsDocuSign =
    docusignAccountServers[configured.host.toLowerCase()] !== undefined || isDocuSignHost(configured.hostname);
  if (configuredIsDocuSign && !isDocuSignHost(url.hostname))
    return refuse(
      `${configured.host} is DocuSign's, and DocuSign's accounts live on *.docusign.net or *.docusign.com`,
      shown,
    );
  return url;
}

/** One credential-bearing call, as {@link fetchWithinOrigin} sends it. */
export interface CredentialCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The body, already encoded (JSON or a form), or bytes (a brand's logo). */
  body?: string | Buffer;
  agent?: (url: URL) => http.Agent;
  signal?: AbortSignal;
  /**
   * How a refused redirect is reported: `SR_HTTP_REDIRECT_REFUSED` (the
   * eSignature service) or `SR_AUTH_REDIRECT_REFUSED` (the account server).
   */
  refusedCode: Extract<ErrorCode, 'SR_HTTP_REDIRECT_REFUSED' | 'SR_AUTH_REDIRECT_REFUSED'>;
  /** What the messages call the call (`GET /restapi/v2.1/accounts/…`: path only, never a query). */
  shown: string;
  /** An answer that is not a usable redirect (an invalid Location, a loop): the caller's own error. */
  badRedirect: (reason: string) => Error;
  /** Added to the refusal's details (the operation). */
  details?: Record<string, unknown>;
}

/**
 * One call with credentials, redirects followed by hand. node-fetch would
 * follow them itself: it re-posts a 307's body (the JWT assertion) to any
 * host, and strips only `Authorization` and cookies on the way to another
 * host — DocuSign's legacy `X-DocuSign-Authentication` header (the password)
 * would go along. Here a redirect is followed only within the origin the
 * call was made to (scheme, host and port: the configured server),
 * credentials and all; one to any other origin is refused with
 * `call.refusedCode` rather than followed without credentials, because a
 * call without them can only fail, later and less clearly, and a server that
 * moved is a configuration to fix, not something to chase silently.
 */
export async function fetchWithinOrigin(call: CredentialCall): Promise<Response> {
  const origin = new URL(call.url).origin;
  let url = call.url;
  let method = call.method;
  let body = call.body;
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetch(url, {
      method,
      headers: body === undefined ? withoutContentType(call.headers) : call.headers,
      redirect: 'manual',
      ...(call.agent ? { agent: call.agent } : {}),
      ...(body === undefined ? {} : { body }),
      ...(call.signal ? { signal: call.signal } : {}),
    });
    const location = response.headers.get('location');
    if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
    response.body?.resume(); // the answer to a redirect is not read: let its connection go back to the pool
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw call.badRedirect('a redirect to an invalid address');
    }
    if (next.origin !== origin) {
      throw new SignrunError(
        call.refusedCode,
        `${method} ${call.shown} was redirected (${response.status}) to ${next.origin}, another origin than the configured ${origin}: not followed, so the credentials were not sent there`,
        { details: { method, path: call.shown, status: response.status, to: next.origin, ...call.details } },
      );
    }
    if (redirects >= maxRedirects) throw call.badRedirect(`more than ${maxRedirects} redirects`);
    // As fetch does: 303, and 301/302 after a POST, go on as a GET without the body; 307/308 repeat the call.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next.href;
  }
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}
