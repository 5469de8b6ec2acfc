import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

/** One HTTP request, as {@link httpCall} sends it: no redirect is followed. */
export interface HttpCallInit {
  method: string;
  headers: Record<string, string>;
  /** The body, already encoded. */
  body?: string | Buffer;
  /** The connection pool; none: a connection of its own, closed after the answer. */
  agent?: http.Agent;
  signal?: AbortSignal;
}

/** An answer's status line and headers, its body not yet read. */
export interface HttpAnswer {
  status: number;
  headers: { get(name: string): string | null };
  /** The body, decoded when the service compressed it. */
  body: Readable;
  /** The whole body as UTF-8 text (a byte-order mark dropped, as fetch does). */
  text(): Promise<string>;
}

/**
 * One HTTP call on node:http, the few parts of fetch the client uses and
 * nothing else (issue 37): node-fetch wrapped every call in a Request, two
 * Headers, two stream pipelines and their AbortControllers, each aborted at
 * its end with a DOMException and its stack — a fifth of the runner's CPU
 * per envelope in the profile of a 1,000-envelope run. On the wire it asks
 * what node-fetch asked (Accept-Encoding gzip and br; Content-Length;
 * `Connection: close` without a pool) and decodes them (deflate, which no
 * service of ours sends, is no longer asked for).
 * Network failures reject with the system error (its `code`: ECONNREFUSED…);
 * an aborted signal rejects with an `AbortError`.
 */
export function httpCall(url: URL, init: HttpCallInit): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const abortError = () => Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
    if (init.signal?.aborted) {
      reject(abortError());
      return;
    }
    const headers: Record<string, string> = { ...init.headers };
    if (!hasHeader(headers, 'accept-encoding')) headers['Accept-Encoding'] = 'gzip, br';
    if (!init.agent && !hasHeader(headers, 'connection')) headers.Connection = 'close';
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    else if (init.method === 'POST' || init.method === 'PUT') headers['Content-Length'] = '0';
    const send = url.protocol === 'https:' ? https.request : http.request;
    const request = send({
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: init.method,
      headers,
      ...(init.agent ? { agent: init.agent } : {}),
    });
    let answered: Readable | undefined;
    const onAbort = () => {
      const error = abortError();
      reject(error);
      answered?.destroy(error);
      request.destroy(error);
    };
    init.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => init.signal?.removeEventListener('abort', onAbort);
    request.on('error', (error) => {
      done();
      reject(error);
    });
    request.on('response', (response) => {
      const body = decoded(response);
      answered = body;
      body.once('close', done);
      resolve({
        status: response.statusCode ?? 0,
        headers: { get: (name) => headerOf(response.headers, name) },
        body,
        text: () => textOf(body),
      });
    });
    request.end(init.body);
  });
}

function hasHeader(headers: Record<string, string>, lower: string): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === lower);
}

/** A header as fetch's `Headers.get` gives it: repeated values joined with `, `. */
function headerOf(headers: http.IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body with its content coding undone (gzip, br), as fetch does. */
function decoded(response: http.IncomingMessage): Readable {
  const coding = response.headers['content-encoding']?.trim().toLowerCase();
  const status = response.statusCode;
  if (!coding || status === 204 || status === 304) return response;
  // As curl and fetch do: a body cut short still gives what arrived.
  const flushing = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.createGunzip(flushing)
      : coding === 'br'
        ? zlib.createBrotliDecompress()
        : undefined;
  if (!decoder) return response;
  // An error of either side ends both (a broken download reaches the reader).
  pipeline(response, decoder, () => undefined);
  return decoder;
}

async function textOf(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
