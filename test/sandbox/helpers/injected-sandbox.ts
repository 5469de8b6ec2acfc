import type { FastifyInstance } from 'fastify';
import { buildSandboxApp } from '../../../src/sandbox/app.js';
import type { RunningSandbox, SandboxOptions } from '../../../src/sandbox/contract.js';
import type { ServicesOverrides } from '../../../src/sandbox/services.js';

/**
 * The sandbox without a socket: the real app (`buildSandboxApp`, every
 * route, hook and plugin), reached through fastify's `inject()`. For tests of
 * what the API answers, where the socket is not the subject (TLS, Connect
 * delivery, the browser, the SDKs and the CLI keep `startSandbox`).
 *
 * Its origin is a name that cannot be reached (`.invalid`, RFC 2606), given
 * as the sandbox's public address, so every address it hands out (signing
 * views, activation links, `base_uri`) starts with it, and its Host
 * allow-list takes it. {@link sandboxFetch} sends a request for such an
 * address to its app; a request that leaves the process by mistake fails on
 * the name instead of reaching something.
 */
const injected = new Map<string, FastifyInstance>();
let made = 0;

export async function injectedSandbox(
  options: Omit<SandboxOptions, 'host' | 'port' | 'publicUrl' | 'tls'> = {},
  overrides: ServicesOverrides = {},
): Promise<RunningSandbox> {
  made += 1;
  const origin = `http://sandbox-${process.pid}-${made}.invalid`;
  const app = await buildSandboxApp(
    // A public address turns key generation off by default (serve --public-url); here it is only a name.
    { ...options, publicUrl: origin, allowKeyGeneration: options.allowKeyGeneration ?? true },
    overrides,
  );
  injected.set(origin, app);
  let closing: Promise<void> | undefined;
  return {
    origin,
    rootUrl: `${origin}/restapi/v2`,
    close: () =>
      (closing ??= app.close().finally(() => {
        injected.delete(origin);
      })),
    app,
  };
}

/** The app of the {@link injectedSandbox} that `url` belongs to, if any. */
export function injectedAppOf(url: string | URL): FastifyInstance | undefined {
  return injected.get(new URL(url).origin);
}

/** Statuses whose answer has no body (the Fetch standard's null body statuses). */
const noBody = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch`, but a request for an {@link injectedSandbox}'s address goes to its
 * app through `inject()`; any other goes out as `fetch` sends it. Redirects
 * are followed as `fetch` follows them unless `redirect: 'manual'`.
 */
export async function sandboxFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input);
  const app = injectedAppOf(url);
  if (!app) return fetch(input, init);
  const headers: Record<string, string> = { host: url.host };
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  let payload: Buffer | undefined;
  if (init.body !== undefined && init.body !== null) {
    // Any body fetch takes (text, bytes, a form, multipart FormData), encoded as fetch would send it.
    const request = new Request(url, { method: init.method ?? 'POST', body: init.body, headers: init.headers });
    payload = Buffer.from(await request.arrayBuffer());
    const type = request.headers.get('content-type');
    if (type !== null) headers['content-type'] ??= type;
  }
  const method = (init.method ?? 'GET').toUpperCase();
  const answer = await app.inject({
    method: method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  // Over a socket an answer arrives in a later turn of the event loop, so a
  // client polling the service lets the sandbox's background work (Bulk Send
  // batches, Connect, workflows) run between calls; inject() may answer
  // within one turn.
  await new Promise((resolve) => setImmediate(resolve));
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
  }
  const location = responseHeaders.get('location');
  if (answer.statusCode >= 300 && answer.statusCode < 400 && location && init.redirect !== 'manual') {
    if (init.redirect === 'error') throw new TypeError(`sandboxFetch: redirected to ${location}`);
    const next = new URL(location, url);
    // 303, and 301/302 after a POST, become a GET without a body (as fetch does).
    const asGet =
      answer.statusCode === 303 || ((answer.statusCode === 301 || answer.statusCode === 302) && method === 'POST');
    const { body: _body, ...rest } = init;
    return sandboxFetch(next, asGet ? { ...rest, method: 'GET' } : init);
  }
  return new Response(noBody.has(answer.statusCode) ? null : answer.rawPayload, {
    status: answer.statusCode,
    headers: responseHeaders,
  });
}
