/**
 * Preloaded into a bench's processes (`node --import <this file>`), it
 * records when each HTTP/1 request of node:http crosses the wire, on both
 * sides, from Node's own diagnostics channels, without a line of signrun
 * changed:
 *
 * - a client (the runner, node-fetch over node:http): when the request was
 *   flushed to its socket (`http.client.request.start` is published from
 *   the request's `_finish`), and when its response's headers were parsed
 *   (`http.client.response.finish`, published before the 'response' event);
 * - a server (the sandbox): when a request's headers arrived and when its
 *   answer was flushed.
 *
 * Each keep-alive connection carries one request at a time, so the k-th
 * request a client sent on its local port is the k-th the server read from
 * that remote port: timeline-report.mjs pairs them so, and splits each
 * call into out (wire and the server's loop), server, and back (wire and
 * the client's loop, the time an answer waits for a busy runner).
 *
 * Written on exit to `$BENCH_TIMELINE_DIR/<client|server>-<pid>.json` as
 * rows [port, method, path, t0, t1] in epoch milliseconds.
 */
import dc from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_TIMELINE_DIR;
const now = () => performance.timeOrigin + performance.now();
const client = [];
const server = [];
const sent = new WeakMap();
const arrived = new WeakMap();

if (dir) {
  dc.subscribe('http.client.request.start', ({ request }) => sent.set(request, now()));
  dc.subscribe('http.client.response.finish', ({ request }) => {
    const t0 = sent.get(request);
    if (t0 !== undefined) client.push([request.socket?.localPort ?? 0, request.method, request.path, t0, now()]);
  });
  dc.subscribe('http.server.request.start', ({ request }) => arrived.set(request, now()));
  dc.subscribe('http.server.response.finish', ({ request, socket }) => {
    const t0 = arrived.get(request);
    if (t0 !== undefined) server.push([socket?.remotePort ?? 0, request.method, request.url, t0, now()]);
  });
  process.on('exit', () => {
    mkdirSync(dir, { recursive: true });
    if (client.length > 0) writeFileSync(join(dir, `client-${process.pid}.json`), JSON.stringify(client));
    if (server.length > 0) writeFileSync(join(dir, `server-${process.pid}.json`), JSON.stringify(server));
  });
}
