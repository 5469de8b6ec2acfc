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
 *   node bench/lib/timeline-report.mjs DIR [SLOTS]
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

/**
 * How full the client kept its slots: from its first request to its last
 * answer, the time it had `slots` calls in flight, and the slot-time it left
 * idle (in wall time: idle slot-milliseconds over `slots`) before its slots
 * were first all full (login, listings), between, and after they were last
 * all full (the run's tail), with the calls made in that tail by kind.
 */
function occupancy(clients, slots) {
  const rows = [...clients.values()].flat();
  if (rows.length === 0) return [];
  const events = rows.flatMap((r) => [[r[3], 1], [r[4], -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const first = events[0][0];
  const last = events.at(-1)[0];
  let inFlight = 0;
  let at = first;
  let firstFull;
  let lastFull;
  let idle = 0;
  let idleBefore = 0;
  let full = 0;
  for (const [t, d] of events) {
    const span = t - at;
    if (inFlight >= slots) full += span;
    else {
      idle += (slots - inFlight) * span;
      if (firstFull === undefined) idleBefore += (slots - inFlight) * span;
    }
    if (inFlight >= slots && d < 0) lastFull = t;
    inFlight += d;
    at = t;
    if (inFlight >= slots && firstFull === undefined) firstFull = t;
  }
  if (firstFull === undefined || lastFull === undefined) return [`  slots: never ${slots} in flight at once`];
  // The tail's idle slot-time, counted again from the last moment the slots were full.
  let tailIdle = 0;
  inFlight = 0;
  at = first;
  for (const [t, d] of events) {
    if (t > lastFull) tailIdle += (slots - inFlight) * (t - Math.max(at, lastFull));
    inFlight += d;
    at = t;
  }
  const tailKinds = new Map();
  for (const r of rows.filter((row) => row[4] > lastFull)) {
    const kind = kindOf(r[1], r[2]);
    tailKinds.set(kind, (tailKinds.get(kind) ?? 0) + 1);
  }
  const ms = (x) => `${(x / slots).toFixed(0)} ms`;
  return [
    `slots (${slots}): ${((last - first) / 1000).toFixed(2)} s from the first request to the last answer, all full ${((full / (last - first)) * 100).toFixed(1)}% of it; idle slot-time in wall time ${ms(idle)}: ${ms(idleBefore)} before they were first full (${(firstFull - first).toFixed(0)} ms in), ${ms(idle - idleBefore - tailIdle)} between, ${ms(tailIdle)} in the tail (${(last - lastFull).toFixed(0)} ms after they were last full)`,
    `  the tail's calls: ${[...tailKinds].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
  ];
}

export function timelineReport(dir, { slots } = {}) {
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
    ...(slots ? occupancy(clients, slots) : []),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(timelineReport(process.argv[2], { slots: Number(process.argv[3] ?? 16) }));
