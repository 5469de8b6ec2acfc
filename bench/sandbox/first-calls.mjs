/**
 * Benchmark: a fresh `signrun serve`'s first call of each kind a run makes
 * (the login, the job's listing, templates, a draft with two documents and
 * two embedded signers, its send, two signing views), each against the
 * second call of that kind, and the time to its "listening" line. Each
 * sample starts a new serve (in memory, --latency L); with two bins the
 * samples alternate A, B, A, B… on the same machine load.
 *
 *   npm run build && node bench/sandbox/first-calls.mjs --bin <A>/dist/cli/bin.js [--bin <B>/dist/cli/bin.js] [--pairs 5] [--latency 50]
 *
 * This process's own fetch is warmed first on a server of its own, so that a
 * first call times the sandbox, not the client's first request. Plain
 * JavaScript on the built dist/.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin as ownBin, numberArg, root, sandboxCredentials, startServe, stopServe } from '../lib/bench-kit.mjs';

const bins = process.argv.flatMap((arg, i) => (arg === '--bin' ? [process.argv[i + 1]] : []));
if (bins.length === 0) bins.push(ownBin);
const pairs = numberArg('pairs', 5);
const latency = numberArg('latency', 50);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Twenty requests, GET and POST with a large JSON body, to a server of this process: undici's first-request costs paid here. */
async function warmClient() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.setHeader('content-type', 'application/json').end('{"ok":true}'));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  for (let i = 0; i < 20; i++) {
    const post = i % 2 === 1;
    const res = await fetch(`http://127.0.0.1:${server.address().port}/warm`, {
      method: post ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: post ? JSON.stringify({ i, text: 'x'.repeat(200_000) }) : undefined,
    });
    await res.json();
  }
  await new Promise((resolve) => server.close(resolve));
}

/** CPU ms of a process's main thread so far (its event loop), from /proc/<pid>/schedstat (ns, not clock ticks). */
function mainThreadCpuMs(pid) {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

const headers = {
  'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials),
  Accept: 'application/json',
  'Content-Type': 'application/json',
};
const documents = ['offer-letter.pdf', 'company-handbook.pdf'].map((f, i) => ({
  documentId: String(i + 1),
  name: f,
  documentBase64: readFileSync(join(root, 'examples/docs', f)).toString('base64'),
}));

/** One sample: a new serve, each kind of call twice in a run's order; ms per call by kind. */
async function sample(bin) {
  const serve = await startServe(latency, [], bin);
  const times = {};
  const cpu = {};
  const call = async (kind, method, url, body) => {
    const started = performance.now();
    const cpuBefore = mainThreadCpuMs(serve.child.pid);
    const res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json();
    if (!res.ok) throw new Error(`${kind}: ${res.status} ${JSON.stringify(json)}`);
    (times[kind] ??= []).push(performance.now() - started);
    (cpu[kind] ??= []).push(mainThreadCpuMs(serve.child.pid) - cpuBefore);
    return json;
  };
  try {
    let base;
    for (let k = 0; k < 2; k++)
      base = (await call('login', 'GET', `${serve.rootUrl}/login_information`)).loginAccounts[0].baseUrl;
    const listing = `${base}/envelopes?from_date=2000-01-01T00%3A00%3A00.000Z&custom_field=signrunJob%3Dbench-first&start_position=0&count=1000`;
    for (let k = 0; k < 2; k++) await call('listing', 'GET', listing);
    for (let k = 0; k < 2; k++) await call('templates', 'GET', `${base}/templates?count=100`);
    for (let k = 0; k < 2; k++) {
      const signers = [1, 2].map((r) => ({
        recipientId: String(r),
        name: `First ${k} ${r}`,
        email: `first${k}-${r}@example.com`,
        clientUserId: `first-${k}-${r}`,
      }));
      const customFields = { textCustomFields: [{ name: 'signrunJob', value: 'bench-first', show: 'false' }] };
      const { envelopeId } = await call('create', 'POST', `${base}/envelopes`, {
        emailSubject: 'Please sign',
        status: 'created',
        documents,
        recipients: { signers },
        customFields,
      });
      await call('send', 'PUT', `${base}/envelopes/${envelopeId}`, { status: 'sent' });
      for (const s of signers)
        await call(`view`, 'POST', `${base}/envelopes/${envelopeId}/views/recipient`, {
          returnUrl: 'https://hr.example.com/done',
          authenticationMethod: 'none',
          clientUserId: s.clientUserId,
          userName: s.name,
          email: s.email,
        });
    }
  } finally {
    await stopServe(serve.child);
  }
  // Views: the first envelope's two against the second's.
  for (const t of [times, cpu]) t.view = [t.view[0] + t.view[1], t.view[2] + t.view[3]].map((ms) => ms / 2);
  return { listenMs: serve.listenMs, times, cpu };
}

await warmClient();
const kinds = ['login', 'listing', 'templates', 'create', 'send', 'view'];
const results = bins.map(() => []);
console.log(
  `first calls of a fresh serve --latency ${latency}: first/second ms per kind (the sandbox's main thread's CPU ms in brackets); ${pairs} samples per bin, alternated`,
);
for (let p = 0; p < pairs; p++) {
  for (const [b, bin] of bins.entries()) {
    const r = await sample(bin);
    results[b].push(r);
    const row = kinds
      .map(
        (k) =>
          `${k} ${r.times[k].map((ms) => ms.toFixed(0)).join('/')} (cpu ${r.cpu[k].map((ms) => ms.toFixed(1)).join('/')})`,
      )
      .join(' | ');
    console.log(`${String.fromCharCode(65 + b)} listening ${r.listenMs.toFixed(0)} ms | ${row} | load ${load()}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [b, bin] of bins.entries()) {
  const rs = results[b];
  const row = kinds
    .map((k) => {
      const at = (t, i) => median(rs.map((r) => r[t][k][i]));
      return `${k} ${at('times', 0).toFixed(0)}/${at('times', 1).toFixed(0)} (cpu ${at('cpu', 0).toFixed(1)}/${at('cpu', 1).toFixed(1)})`;
    })
    .join(' | ');
  console.log(
    `median ${String.fromCharCode(65 + b)} (${bin}): listening ${median(rs.map((r) => r.listenMs)).toFixed(0)} ms | ${row}`,
  );
}
