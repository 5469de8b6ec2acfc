/**
 * Joins the client's and the server's rows written by http-timeline.mjs
 * (one directory, one run) and says, for each kind of call, where its time
 * went: out (from the client's flush to the server's reading the headers:
 * the wire, and the server's loop when busy), server (headers in to answer
 * flushed: for the sandbox, its --latency plus its work), back (answer
 * flushed to the client's parsing it: the wire, and the client's loop when
 * busy). A call's `out + back` is what the client and the wire add to what
 * the server takes; a bare client pays about 1 ms of it here.
 *
 *   node bench/lib/timeline-report.mjs DIR
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Rows of every file of `side` in `dir`, by port, each port's rows in time order. */
function byPort(dir, side) {
  const ports = new Map();
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${side}-`))) {
    for (const row of JSON.parse(readFileSync(join(dir, file), 'utf8'))) {
      const list = ports.get(row[0]) ?? [];
      list.push(row);
      ports.set(row[0], list);
    }
  }
  for (const list of ports.values()) list.sort((a, b) => a[3] - b[3]);
  return ports;
}

/** The call's kind: its method and path, ids and the query left out. */
const kindOf = (method, path) =>
  `${method} ${path
    .split('?')[0]
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/\/restapi\/v2(\.1)?\/accounts\/[^/]+/, '…')}`;

export function timelineReport(dir) {
  const clients = byPort(dir, 'client');
  const servers = byPort(dir, 'server');
  const kinds = new Map();
  let unmatched = 0;
  for (const [port, calls] of clients) {
    // A later process may have reused the port: only the first calls.length rows are this client's.
    const answers = servers.get(port) ?? [];
    calls.forEach((call, k) => {
      const answer = answers[k];
      if (!answer || answer[1] !== call[1]) {
        unmatched += 1;
        return;
      }
      const kind = kindOf(call[1], call[2]);
      const sum = kinds.get(kind) ?? { n: 0, out: 0, server: 0, back: 0, backs: [] };
      sum.n += 1;
      sum.out += answer[3] - call[3];
      sum.server += answer[4] - answer[3];
      sum.back += call[4] - answer[4];
      sum.backs.push(call[4] - answer[4]);
      kinds.set(kind, sum);
    });
  }
  const p = (list, q) => list.sort((a, b) => a - b)[Math.floor(q * (list.length - 1))] ?? 0;
  const lines = [...kinds]
    .sort((a, b) => b[1].n - a[1].n)
    .map(
      ([kind, s]) =>
        `  ${kind}: ${s.n} calls; out ${(s.out / s.n).toFixed(2)} ms, server ${(s.server / s.n).toFixed(2)} ms, back ${(s.back / s.n).toFixed(2)} ms (p50 ${p(s.backs, 0.5).toFixed(2)}, p90 ${p(s.backs, 0.9).toFixed(2)}, p99 ${p(s.backs, 0.99).toFixed(2)})`,
    );
  const all = [...kinds.values()].reduce((t, s) => ({ n: t.n + s.n, out: t.out + s.out, back: t.back + s.back }), {
    n: 0,
    out: 0,
    back: 0,
  });
  return [
    `per call, where the time went (http-timeline, ${all.n} calls paired${unmatched ? `, ${unmatched} not` : ''}): out + back ${((all.out + all.back) / Math.max(all.n, 1)).toFixed(2)} ms a call on average`,
    ...lines,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(timelineReport(process.argv[2]));
