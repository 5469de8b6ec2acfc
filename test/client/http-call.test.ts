import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../src/client/http-call.js';

/**
 * The client's one HTTP call (issue 37: node:http instead of node-fetch),
 * against a real loopback server: what it sends, the content codings it
 * undoes, and how it fails.
 */
type Seen = { method: string; headers: http.IncomingHttpHeaders; body: string };
const seen: Seen[] = [];
const json = JSON.stringify({ envelopeId: 'e-1', note: 'é' });
let server: http.Server;
let root: string;
/** Answers that never come until the test says so: for aborts. */
const held: http.ServerResponse[] = [];
let heldOne: () => void = () => undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      const path = req.url ?? '/';
      if (path === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(json));
      } else if (path === '/br') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
        res.end(brotliCompressSync(json));
      } else if (path === '/bom') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`\ufeff${json}`);
      } else if (path === '/repeated') {
        res.setHeader('x-thing', ['a', 'b']);
        res.writeHead(204);
        res.end();
      } else if (path === '/cut') {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000' });
        res.write('only part of it');
        setImmediate(() => res.socket?.destroy());
      } else if (path === '/hold') {
        held.push(res);
        heldOne();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(json);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.socket?.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('httpCall', () => {
  it('sends the body with its length, asks for gzip and br, and closes a connection it does not pool', async () => {
    seen.length = 0;
    const body = JSON.stringify({ emailSubject: 'Sign é' });
    const answer = await httpCall(new URL(`${root}/plain?x=1`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(json);
    expect(seen[0]).toMatchObject({ method: 'POST', body });
    expect(seen[0]!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen[0]!.headers['accept-encoding']).toBe('gzip, br');
    expect(seen[0]!.headers.connection).toBe('close');
  });

  it('keeps the connection of a pooled call, and sends Content-Length 0 for a POST without a body', async () => {
    seen.length = 0;
    const agent = new http.Agent({ keepAlive: true });
    try {
      const answer = await httpCall(new URL(`${root}/plain`), { method: 'POST', headers: {}, agent });
      await answer.text();
      expect(seen[0]!.headers['content-length']).toBe('0');
      expect(seen[0]!.headers.connection).toBe('keep-alive');
    } finally {
      agent.destroy();
    }
  });

  it.each(['gzip', 'br'])('undoes %s, as fetch does', async (coding) => {
    const answer = await httpCall(new URL(`${root}/${coding}`), { method: 'GET', headers: {} });
    expect(answer.headers.get('Content-Encoding')).toBe(coding);
    expect(JSON.parse(await answer.text())).toEqual(JSON.parse(json));
  });

  it('drops a byte-order mark from text, and joins repeated headers as fetch does', async () => {
    expect(await (await httpCall(new URL(`${root}/bom`), { method: 'GET', headers: {} })).text()).toBe(json);
    const repeated = await httpCall(new URL(`${root}/repeated`), { method: 'GET', headers: {} });
    expect(repeated.headers.get('x-thing')).toBe('a, b');
    expect(repeated.headers.get('x-missing')).toBeNull();
  });

  it('rejects with the system error when nothing listens, and the body with a break when the answer is cut', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpCall(new URL(`http://127.0.0.1:${port}/`), { method: 'GET', headers: {} })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    const cut = await httpCall(new URL(`${root}/cut`), { method: 'GET', headers: {} });
    await expect(cut.text()).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('rejects with an AbortError when its signal is aborted, before or during the call', async () => {
    const early = new AbortController();
    early.abort();
    await expect(
      httpCall(new URL(`${root}/plain`), { method: 'GET', headers: {}, signal: early.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    const late = new AbortController();
    const holding = new Promise<void>((resolve) => (heldOne = resolve));
    const call = httpCall(new URL(`${root}/hold`), { method: 'GET', headers: {}, signal: late.signal });
    await holding; // the request reached the server, which keeps its answer
    late.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});
