/**
 * Benchmark of `signrun run --bulk-send` (issue 24, item 3) against
 * `signrun serve` in its own process.
 *
 * Calls per envelope (default): N rows (2 documents, 2 embedded signers
 * each, the run benchmark's campaign) sent through Bulk Send, with signing
 * addresses on demand; prints the run's API calls per envelope from its
 * report.json (api.calls, api.byOperation), and those of the Bulk Send path
 * alone (model draft, lists, sends, batch looks, model deleted).
 *
 *   npm run build && node bench/run/bulk-send-bench.mjs [--rows 1000] [--latency 0]
 *
 * Killed twice (the done-when of the issue): N rows in lists of L, the
 * runner SIGKILLed (by pid) twice while a batch it sent is being made, then
 * run again to the end; checks through the API that the job has exactly N
 * envelopes, one per identity, and that no row was in two batches.
 *
 *   npm run build && node bench/run/bulk-send-bench.mjs --kills 2 --rows 2000 [--list-size 250]
 *
 * Plain JavaScript on the built dist/.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { bin, numberArg, sandboxCredentials, sandboxEnv, startServe, stopServe, twoSignerJobFolder } from '../lib/bench-kit.mjs';

const rows = numberArg('rows', 1000);
const latency = numberArg('latency', 0);
const kills = numberArg('kills', 0);
const listSize = numberArg('list-size', kills > 0 ? 250 : 1000);
const job = kills > 0 ? 'bulk-kills' : 'bulk-bench';
const bulkOperations = [
  'createEnvelope',
  'createBulkSendList',
  'sendBulkSendList',
  'getBulkSendBatch',
  'listBulkSendBatches',
  'deleteDrafts',
];

const say = (line) => process.stdout.write(`${line}\n`);

/** One `signrun run --bulk-send`; `killWhen` is polled every 50 ms and, once true, the runner is SIGKILLed. */
async function run(dir, rootUrl, killWhen) {
  const args = [
    bin,
    'run',
    join(dir, 'bulk.yaml'),
    '--out',
    join(dir, 'out'),
    '--bulk-send',
    '--bulk-list-size',
    String(listSize),
    '--signing-urls',
    'on-demand',
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: sandboxEnv(rootUrl), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  let killed = false;
  let timer;
  if (killWhen) {
    const poll = async () => {
      if (await killWhen().catch(() => false)) {
        killed = true;
        child.kill('SIGKILL');
        return;
      }
      timer = setTimeout(poll, 50);
    };
    timer = setTimeout(poll, 50);
  }
  const result = await exited;
  clearTimeout(timer);
  return { ...result, killed, stderr, seconds: (performance.now() - started) / 1000 };
}

/** The service's API as the sandbox's seed user (for checks and kill moments: never counted in the run's calls). */
async function api(rootUrl) {
  const headers = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials), 'content-type': 'application/json' };
  const login = await (await fetch(`${rootUrl}/login_information`, { headers })).json();
  const base = login.loginAccounts[0].baseUrl.replace('/restapi/v2/', '/restapi/v2.1/');
  return {
    get: async (path) => (await fetch(`${base}${path}`, { headers })).json(),
  };
}

async function batchesOfJob(service) {
  const all = await service.get('/bulk_send_batch?status=all&count=1000');
  return (all.bulkBatchSummaries ?? []).filter((b) => b.batchName.startsWith(`signrun/${job}/`));
}

/** Non-deleted envelopes of the job per identity, from the status listing (paged). */
async function envelopesPerIdentity(service) {
  const per = new Map();
  for (let start = 0; ; start += 1000) {
    const page = await service.get(
      `/envelopes?from_date=2000-01-01&custom_field=signrunJob=${job}&count=1000&start_position=${start}`,
    );
    for (const e of page.envelopes ?? []) {
      if (e.status === 'deleted') continue;
      const identity = e.customFields?.textCustomFields?.find((f) => f.name === 'signrun')?.value;
      if (!identity || identity.includes('#')) continue;
      per.set(identity, [...(per.get(identity) ?? []), e.envelopeId]);
    }
    if (Number(page.resultSetSize ?? 0) < 1000) break;
  }
  return per;
}

const { child: serve, rootUrl } = await startServe(latency);
const dir = twoSignerJobFolder({ prefix: 'signrun-bulk-bench-', job, file: 'bulk.yaml', n: rows });
say(`signrun run --bulk-send: ${rows} rows (2 documents, 2 embedded signers), lists of ${listSize}, serve --latency ${latency}; ${cpus().length} CPUs, node ${process.version}, ${new Date().toISOString()}`);
try {
  if (kills === 0) {
    const r = await run(dir, rootUrl);
    if (r.code !== 0) throw new Error(`run exited ${r.code}: ${r.stderr.slice(-2000)}`);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
    const calls = report.api.calls;
    const byOperation = report.api.byOperation ?? {};
    const bulkCalls = bulkOperations.reduce((n, op) => n + (byOperation[op] ?? 0), 0);
    say(`  wall time ${r.seconds.toFixed(1)} s; envelopes succeeded: ${report.envelopes.filter((e) => e.outcome === 'succeeded').length}/${rows}`);
    say(`  calls by operation: ${JSON.stringify(byOperation)}`);
    say(`  Bulk Send calls per envelope: ${(bulkCalls / rows).toFixed(4)} (${bulkCalls} calls: ${bulkOperations.filter((op) => byOperation[op]).map((op) => `${op} ${byOperation[op]}`).join(', ')})`);
    say(`  all calls of the run per envelope: ${(calls / rows).toFixed(4)} (${calls} calls, login and listings included)`);
  } else {
    const service = await api(rootUrl);
    const seen = new Set();
    for (let k = 1; k <= kills; k++) {
      for (const b of await batchesOfJob(service)) seen.add(b.batchId);
      // Killed while a batch this run sent is being made: some copies made, some queued.
      const r = await run(dir, rootUrl, async () =>
        (await batchesOfJob(service)).some((b) => !seen.has(b.batchId) && Number(b.sent) > 0 && Number(b.queued) > 0),
      );
      const now = await batchesOfJob(service);
      const own = now.filter((b) => !seen.has(b.batchId));
      say(`  run ${k}: ${r.killed ? `SIGKILL after ${r.seconds.toFixed(1)} s, a batch of its own half made` : `ended (${r.code ?? r.signal}) in ${r.seconds.toFixed(1)} s before a kill`}; it sent ${own.length} batch(es), ${own.reduce((n, b) => n + Number(b.sent), 0)} copies made of them so far`);
    }
    const last = await run(dir, rootUrl);
    say(`  run ${kills + 1}: exit ${last.code} in ${last.seconds.toFixed(1)} s`);
    const per = await envelopesPerIdentity(service);
    const twice = [...per.values()].filter((ids) => ids.length > 1).length;
    const batches = await batchesOfJob(service);
    const inBatches = batches.reduce((n, b) => n + Number(b.batchSize), 0);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
    const succeeded = report.envelopes.filter((e) => e.outcome === 'succeeded').length;
    say(`  batches: ${batches.length}, ${inBatches} copies in all (${batches.map((b) => b.batchSize).join(' + ')})`);
    say(`  envelopes on the service: ${per.size} identities, ${twice} with more than one envelope; report: ${succeeded}/${rows} succeeded`);
    const ok = last.code === 0 && per.size === rows && twice === 0 && inBatches === rows && succeeded === rows;
    say(`  ${ok ? 'OK' : 'FAILED'}: exactly ${rows} envelopes, one per identity`);
    if (!ok) process.exitCode = 1;
  }
} finally {
  await stopServe(serve);
  rmSync(dir, { recursive: true, force: true });
}
