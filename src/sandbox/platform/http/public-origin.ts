import type { FastifyInstance } from 'fastify';
import { SignrunError } from '../../../errors/signrun-error.js';

/**
 * The origin every address the sandbox hands out starts with (signing
 * views, outbox links, activation links, Connect log URIs, login baseUrl):
 * configuration only, never the request's Host header, so a client that
 * names the sandbox otherwise (DNS rebinding, a forged Host) cannot make it
 * hand out links to another site.
 *
 * In order: `--public-url` (config.origin, set at build), the address
 * startSandbox listens on (config.origin, set once listening; loopback for
 * a wildcard address), the address of a bare `app.listen()`, and under
 * `inject()` (no socket at all) http://localhost.
 */
export function publicOrigin(app: FastifyInstance): string {
  const configured = app.sandbox.config.origin;
  if (configured !== undefined) return configured;
  const address = app.server.address();
  if (typeof address === 'object' && address !== null) {
    const wildcard = address.address === '0.0.0.0' || address.address === '::';
    const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }
  return 'http://localhost';
}

/**
 * Reads `--public-url`: an http(s) URL without credentials, query or
 * fragment; a path is kept (a reverse proxy that serves the sandbox under a
 * prefix). Returns it without a trailing slash, plus its host name for the
 * Host allow-list.
 */
export function parsePublicUrl(text: string): { origin: string; hostname: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw publicUrlError(text, 'it is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw publicUrlError(text, 'it must start with http:// or https://');
  if (url.username !== '' || url.password !== '')
    throw publicUrlError(text, 'it must not carry a user name or password');
  if (url.search !== '' || url.hash !== '') throw publicUrlError(text, 'it must not have a query or a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  return { origin: `${url.protocol}//${url.host}${path}`, hostname: url.hostname };
}

function publicUrlError(text: string, why: string): SignrunError {
  // Shown as given: a URL with a password is refused, and the refusal must not repeat it.
  const shown = /@/.test(text) ? '(a URL with credentials)' : JSON.stringify(text);
  return new SignrunError('SR_SANDBOX_PUBLIC_URL', `--public-url ${shown} cannot be used: ${why}`);
}
