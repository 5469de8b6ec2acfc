/**
 * Benchmark: the sandbox's CPU per request for each call `signrun run` makes
 * per envelope (bench/run's 9: the identity lookup, create, recipients, two
 * signing views, the document list, two documents, the certificate), each
 * hammered alone by autocannon (16 connections) against the real `signrun
 * serve` process (in memory, --latency 0), read from /proc (utime + stime of
 * all its threads). Then the identity lookup's cost with 1,000 and 10,000
 * envelopes stored (in process), which must not grow with the count.
 *
 *   npm run build && node bench/sandbox/request-cpu.mjs [--seconds 3] [--connections 16] [--dist path/to/dist]
 *
 * --dist measures another build (e.g. one of an older commit, for a before/after on the same machine load).
 * Plain JavaScript on the built dist/ (the build compiles src/ only).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const seconds = Number(option('seconds', 3));
const connections = Number(option('connections', 16));
const dist = resolve(option('dist', fileURLToPath(new URL('../../dist', import.meta.url))));
const examples = fileURLToPath(new URL('../../examples/docs/', import.meta.url));

function startServe() {
  const child = spawn(process.execPath, [`${dist}/cli/bin.js`, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      if (out === null) return; // the request log: drained, not kept (a full pipe would stall the server)
      out += d;
      const m = /sandbox listening on (\S+)\n/.exec(out);
      if (m) {
        out = null;
        resolveStart({ child, rootUrl: m[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

/** CPU ms (user + system, all threads) the process has used. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const headers = {
  'X-DocuSign-Authentication': JSON.stringify({ Username: 'sandbox@signrun.test', Password: 'sandbox-password', IntegratorKey: 'sandbox-integrator-key' }),
  Accept: 'application/json',
};
const documents = ['offer-letter.pdf', 'company-handbook.pdf'].map((name, i) => ({
  documentId: String(i + 1),
  name,
  documentBase64: readFileSync(`${examples}${name}`).toString('base64'),
}));
const signers = [1, 2].map((r) => ({ recipientId: String(r), name: `Signer ${r}`, email: `signer${r}@example.com`, clientUserId: `c-${r}` }));
const envelopeBody = (identity) =>
  JSON.stringify({
    emailSubject: 'Please sign',
    status: 'sent',
    documents,
    recipients: { signers },
    customFields: { textCustomFields: [{ name: 'signrun', value: identity, show: 'false' }] },
  });

const serve = await startServe();
const { pid } = serve.child;
const json = async (method, url, body) => {
  const res = await fetch(url, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
};
const login = await json('GET', `${serve.rootUrl}/login_information`);
const base = login.loginAccounts[0].baseUrl;
const { envelopeId } = await json('POST', `${base}/envelopes`, envelopeBody('bench/request-cpu'));
const envelope = `${base}/envelopes/${envelopeId}`;

// Per envelope of bench/run: how many times each call is made.
const calls = [
  ['GET …/envelopes?custom_field (identity lookup)', 1, { url: `${base}/envelopes?from_date=2000-01-01T00:00:00Z&custom_field=${encodeURIComponent('signrun=bench/none')}` }],
  ['POST …/envelopes (2 documents, 2 signers)', 1, { url: `${base}/envelopes`, method: 'POST', headers: { 'content-type': 'application/json' }, body: envelopeBody('bench/created') }],
  ['GET …/recipients', 1, { url: `${envelope}/recipients` }],
  ['POST …/views/recipient', 2, { url: `${envelope}/views/recipient`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ returnUrl: 'https://hr.example.com/done', authenticationMethod: 'none', clientUserId: 'c-1', userName: 'Signer 1', email: 'signer1@example.com' }) }],
  ['GET …/documents', 1, { url: `${envelope}/documents` }],
  ['GET …/documents/1', 2, { url: `${envelope}/documents/1` }],
  ['GET …/documents/certificate', 1, { url: `${envelope}/documents/certificate` }],
];

const results = [];
let perEnvelope = 0;
try {
  for (const [name, times, request] of calls) {
    const options = { connections, ...request, headers: { ...headers, ...(request.headers ?? {}) } };
    await autocannon({ ...options, duration: 1 }); // warm-up
    const before = cpuMs(pid);
    const r = await autocannon({ ...options, duration: seconds });
    const usPerRequest = ((cpuMs(pid) - before) * 1000) / r.requests.total;
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    perEnvelope += usPerRequest * times;
    results.push({ call: name, perEnvelope: times, requests: r.requests.total, cpuUsPerRequest: Math.round(usPerRequest) });
  }
} finally {
  serve.child.kill('SIGTERM');
}

// The identity lookup against 1,000 and 10,000 stored envelopes, in process (the repository, no HTTP).
const { createServices } = await import(pathToFileURL(`${dist}/sandbox/services.js`).href);
const { buildEnvelope } = await import(pathToFileURL(`${dist}/sandbox/esignature/envelopes/envelope-factory.js`).href);
const { parseEnvelopeDefinition } = await import(pathToFileURL(`${dist}/sandbox/esignature/envelopes/wire/envelope-definition.js`).href);
const { defaultSeedIds } = await import(pathToFileURL(`${dist}/sandbox/index.js`).href);
const lookups = {};
for (const stored of [1000, 10000]) {
  const services = await createServices({});
  for (let i = 0; i < stored; i++) {
    const built = await buildEnvelope(parseEnvelopeDefinition(JSON.parse(envelopeBody(`id-${i}`))), {
      accountId: defaultSeedIds.accountId,
      userId: defaultSeedIds.userId,
      now: Date.now(),
      blobs: services.blobs,
      templates: services.templates,
      work: services.documentWork,
    });
    await services.lifecycle.createSoon(built.envelope, built.recipients, built.documents, built.customFields, {});
  }
  const query = (value) => ({ accountId: defaultSeedIds.accountId, fromDate: Date.parse('2000-01-01T00:00:00Z'), customField: { name: 'signrun', value }, startPosition: 0, count: 1000 });
  const usPer = (value) => {
    for (let i = 0; i < 50; i++) services.envelopes.list(query(value(i)));
    const n = 500;
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) services.envelopes.list(query(value(i)));
    const used = process.cpuUsage(start);
    return Math.round((used.user + used.system) / n);
  };
  lookups[stored] = { foundUs: usPer((i) => `id-${(i * 7919) % stored}`), notFoundUs: usPer((i) => `none-${i}`) };
  services.close();
}

console.log(
  JSON.stringify(
    {
      bench: 'sandbox CPU per request of bench/run calls',
      dist,
      seconds,
      connections,
      calls: results,
      cpuMsPerEnvelope: Number((perEnvelope / 1000).toFixed(2)),
      identityLookupByStoredEnvelopes: lookups,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}, 1-min load average at start ${loadavg()[0].toFixed(1)}`,
    },
    null,
    2,
  ),
);
