/**
 * Benchmark of `signrun run`: N envelopes (2 documents, 2 embedded signers
 * each, from a CSV fan-out) against `signrun serve --latency L` in its own
 * process, at concurrency C. Reports the run's wall time against the ideal
 * `N × API calls per envelope × L / C`, API calls per envelope and the peak
 * RSS of the runner process (VmHWM from /proc). Then the same HTTP calls
 * made by a plain sequential loop (what the Python client's demo does) on a
 * sample of S envelopes, extrapolated to N, for the speedup.
 *
 *   npm run build && node bench/run/run-bench.mjs [--envelopes 1000] [--concurrency 16] [--latency 50] [--sequential 50] [--documents at-send] [--signing-urls on-demand] [--ceiling] [--warm 32] [--timeline] [--profile DIR]
 *
 * Plain JavaScript on the built dist/ (the build compiles src/ only).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bin, numberArg, root, sandboxCredentials, sandboxEnv, startServe, stopServe, stringArg, twoSignerJobFolder } from '../lib/bench-kit.mjs';
import { timelineReport } from '../lib/timeline-report.mjs';

const envelopes = numberArg('envelopes', 1000);
const concurrency = numberArg('concurrency', 16);
const latency = numberArg('latency', 50);
const sequentialSample = numberArg('sequential', 50);
// --documents at-send: download documents and certificate right after sending (default: on completion, later).
const documentsWhen = stringArg('documents');
// --signing-urls on-demand: no signing address at send (issue 24): two calls an envelope.
const signingUrls = stringArg('signing-urls');
// --ceiling: after the floor, the run's own calls made by a client that does nothing else (see ceiling()).
const withCeiling = process.argv.includes('--ceiling');
// --warm N: before the run, N envelopes through the ceiling's calls and one listing of another job, so that
// the run meets a sandbox as warm as the floor and the ceiling do (they come after it); 0 (the default): a cold sandbox.
const warm = numberArg('warm', 0);
// --profile DIR: write V8 CPU profiles of the runner and the sandbox there (node --cpu-prof).
const profileDir = stringArg('profile');
// --timeline: where each call's time goes, client and server side (bench/lib/http-timeline.mjs), printed after the run;
// --keep-timeline keeps its rows.
const timelineDir = process.argv.includes('--timeline') ? mkdtempSync(join(tmpdir(), 'signrun-bench-timeline-')) : undefined;
if (timelineDir) process.env.BENCH_TIMELINE_DIR = timelineDir;
const timelineFlags = timelineDir ? ['--import', pathToFileURL(join(root, 'bench/lib/http-timeline.mjs')).href] : [];
// Each process writes its profile under DIR/<run|serve>/ on exit.
const profileFlags = (name) => [...timelineFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`] : [])];

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Established TCP connections from the runner to the sandbox's port, from
 * /proc/net/tcp (IPv4 loopback): one request per connection, so the peak is
 * the most requests the service ever had in flight at once.
 */
function connectionsTo(port) {
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    return readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .filter((line) => {
        const f = line.trim().split(/\s+/);
        // local address of the server side is 0100007F:<port>, state 01 = ESTABLISHED
        return f[1]?.endsWith(`:${hex}`) && f[3] === '01';
      }).length;
  } catch {
    return 0;
  }
}

function peakRss(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function runSignrun(rootUrl, dir) {
  const started = performance.now();
  const child = spawn(process.execPath, [...profileFlags('run'), bin, 'run', '.', '--out', 'out', '--concurrency', String(concurrency), ...(documentsWhen ? ['--documents', documentsWhen] : []), ...(signingUrls ? ['--signing-urls', signingUrls] : [])], { cwd: dir, env: sandboxEnv(rootUrl), stdio: ['ignore', 'pipe', 'pipe'] });
  let peak = 0;
  let cpu = 0;
  const port = Number(new URL(rootUrl).port);
  let peakConnections = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, peakRss(child.pid));
    cpu = Math.max(cpu, cpuSeconds(child.pid));
  }, 50);
  // Connections are sampled less often: reading /proc/net/tcp every 50 ms
  // cost this process 1-2 s of CPU per run, on the cores being measured.
  const connectionPoll = setInterval(() => {
    peakConnections = Math.max(peakConnections, connectionsTo(port));
  }, 500);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.resume();
  const code = await new Promise((resolve) => child.on('exit', (c) => {
    peak = Math.max(peak, peakRss(child.pid));
    cpu = Math.max(cpu, cpuSeconds(child.pid));
    resolve(c);
  }));
  clearInterval(poll);
  clearInterval(connectionPoll);
  if (code !== 0) throw new Error(`run exited ${code}: ${stdout}`);
  const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
  return { wallMs: performance.now() - started, report, peak, cpu, peakConnections };
}

/** The same calls as signrun's pipeline, one at a time, with the platform's fetch: the baseline. */
async function sequential(rootUrl, n) {
  const headers = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials), Accept: 'application/json' };
  const call = async (method, url, body) => {
    const res = await fetch(url, { method, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${url} ${res.status} ${await res.text()}`);
    return res;
  };
  const docs = ['offer-letter.pdf', 'company-handbook.pdf'].map((f, i) => ({ documentId: String(i + 1), name: f, documentBase64: readFileSync(join(root, 'examples/docs', f)).toString('base64') }));
  const started = performance.now();
  const login = await (await call('GET', `${rootUrl}/login_information`)).json();
  const base = login.loginAccounts[0].baseUrl;
  let calls = 1;
  for (let i = 0; i < n; i++) {
    const signers = [1, 2].map((r) => ({ recipientId: String(r), name: `Seq ${i} ${r}`, email: `seq${i}-${r}@example.com`, clientUserId: `seq-${i}-${r}` }));
    const { envelopeId } = await (await call('POST', `${base}/envelopes`, { emailSubject: 'Please sign', status: 'sent', documents: docs, recipients: { signers } })).json();
    const recipients = await (await call('GET', `${base}/envelopes/${envelopeId}/recipients`)).json();
    for (const s of recipients.signers) {
      await (await call('POST', `${base}/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://hr.example.com/done', authenticationMethod: 'none', clientUserId: s.clientUserId, userName: s.name, email: s.email })).json();
    }
    const listed = await (await call('GET', `${base}/envelopes/${envelopeId}/documents`)).json();
    for (const d of listed.envelopeDocuments.filter((x) => x.documentId !== 'certificate')) await (await call('GET', `${base}/envelopes/${envelopeId}/documents/${d.documentId}`)).arrayBuffer();
    await (await call('GET', `${base}/envelopes/${envelopeId}/documents/certificate`)).arrayBuffer();
    calls += 8;
  }
  return { ms: performance.now() - started, calls };
}

/**
 * The machine's floor at this latency: the same number of calls as the run
 * made, C at a time, each a bare GET login_information with the platform's
 * fetch. On a quiet machine it takes about the ideal; on a loaded one it
 * shows what any client could do there and then, side by side with the run.
 */
async function floor(rootUrl, calls) {
  const headers = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials), Accept: 'application/json' };
  let left = calls;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await (await fetch(`${rootUrl}/login_information`, { headers })).arrayBuffer();
      }
    }),
  );
  return performance.now() - started;
}

/**
 * The ceiling of any client against this sandbox: each envelope's own calls
 * as the run makes them (a draft with the two documents and two embedded
 * signers, its send, the two signing addresses at once, or with
 * --signing-urls on-demand the draft and send only), with the platform's
 * fetch, no journal, no files, no listing, never more than C in flight
 * (one slot each, first come first served), 4 × C envelopes in progress as
 * the run keeps. What it loses against the floor is the service's own work
 * per call (creation above all), which no client can take back; what the
 * run loses against it is the runner's.
 */
async function ceiling(rootUrl, n, name = 'ceiling') {
  const headers = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials), Accept: 'application/json', 'Content-Type': 'application/json' };
  const login = await (await fetch(`${rootUrl}/login_information`, { headers })).json();
  const base = login.loginAccounts[0].baseUrl;
  const docs = ['offer-letter.pdf', 'company-handbook.pdf'].map((f, i) => ({ documentId: String(i + 1), name: f, documentBase64: readFileSync(join(root, 'examples/docs', f)).toString('base64') }));
  let free = concurrency;
  const waiting = [];
  const call = async (method, url, body) => {
    if (free > 0) free -= 1;
    else await new Promise((resolve) => waiting.push(resolve));
    try {
      const res = await fetch(url, { method, headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${url} ${res.status} ${await res.text()}`);
      return await res.json();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
  let left = n;
  let calls = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency * 4 }, async () => {
      while (left > 0) {
        const i = left;
        left -= 1;
        const signers = [1, 2].map((r) => ({ recipientId: String(r), name: `${name} ${i} ${r}`, email: `${name}${i}-${r}@example.com`, clientUserId: `${name}-${i}-${r}` }));
        const { envelopeId } = await call('POST', `${base}/envelopes`, { emailSubject: 'Please sign', status: 'created', documents: docs, recipients: { signers } });
        await call('PUT', `${base}/envelopes/${envelopeId}`, { status: 'sent' });
        calls += 2;
        if (signingUrls === 'on-demand') continue;
        await Promise.all(signers.map((s) => call('POST', `${base}/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://hr.example.com/done', authenticationMethod: 'none', clientUserId: s.clientUserId, userName: s.name, email: s.email })));
        calls += 2;
      }
    }),
  );
  return { ms: performance.now() - started, calls };
}

/**
 * A fresh sandbox answers its first calls of each kind late (its own start:
 * once measured, 350 ms for the first login against 55 ms warm, 200 ms for
 * the first listing against 55), and the run meets them on its critical path (login, then the
 * job's listing, one after the other) while the floor and the ceiling,
 * which come after it, do not. `--warm N` makes each kind of call first,
 * for another job, so that all three meet the same sandbox.
 */
async function warmUp(rootUrl, n) {
  const headers = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials), Accept: 'application/json' };
  await ceiling(rootUrl, n, 'warm');
  const login = await (await fetch(`${rootUrl}/login_information`, { headers })).json();
  const listing = `${login.loginAccounts[0].baseUrl}/envelopes?from_date=2000-01-01T00%3A00%3A00.000Z&custom_field=signrunJob%3Dbench-warm&start_position=0&count=1000`;
  const res = await fetch(listing, { headers });
  if (!res.ok) throw new Error(`warm-up listing: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

const serve = await startServe(latency, profileFlags('serve'));
const dir = twoSignerJobFolder({ prefix: 'signrun-bench-run-', job: 'bench-run', file: 'bench.yaml', n: envelopes });
try {
  if (warm > 0) await warmUp(serve.rootUrl, warm);
  const serveCpuBefore = cpuSeconds(serve.child.pid);
  const { wallMs, report, peak, cpu, peakConnections } = await runSignrun(serve.rootUrl, dir);
  const serveCpu = cpuSeconds(serve.child.pid) - serveCpuBefore;
  // Every call of the run (login, the job's listing, the listings that confirm drafts) over the envelopes:
  // the figure that decides throughput against an hourly call limit.
  const perEnvelope = report.api.calls / report.envelopes.length;
  const itemCalls = report.envelopes.reduce((n, e) => n + e.apiCalls, 0) / report.envelopes.length;
  const idealMs = (envelopes * perEnvelope * latency) / concurrency;
  const lines = [
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${loadavg()[0].toFixed(2)}`,
    `signrun run: ${envelopes} envelopes, concurrency ${concurrency}, latency ${latency} ms${warm > 0 ? `, on a sandbox warmed by ${warm} envelopes` : ', on a fresh sandbox'}`,
    `  succeeded ${report.totals.envelopes.succeeded}/${report.totals.envelopes.total}; API calls ${report.api.calls} (${perEnvelope.toFixed(2)} per envelope, all calls; ${itemCalls.toFixed(2)} made by each envelope itself), retries ${report.api.retries}; by operation ${JSON.stringify(report.api.byOperation)}`,
    `  run phase ${(report.durationMs / 1000).toFixed(1)} s (process wall ${(wallMs / 1000).toFixed(1)} s, validation and start included)`,
    `  ideal ${(idealMs / 1000).toFixed(1)} s → ${((idealMs / report.durationMs) * 100).toFixed(1)}% of ideal throughput; ${(envelopes / (report.durationMs / 1000)).toFixed(1)} envelopes/s`,
    `  peak RSS of the runner ${(peak / 2 ** 20).toFixed(0)} MB; CPU: runner ${cpu.toFixed(1)} s, sandbox ${serveCpu.toFixed(1)} s`,
    `  most connections to the service at once (sampled every 500 ms; one request each): ${peakConnections} (--concurrency ${concurrency})`,
  ];
  const floorMs = await floor(serve.rootUrl, report.api.calls);
  lines.push(
    `machine floor: ${report.api.calls} bare calls, ${concurrency} at a time, in ${(floorMs / 1000).toFixed(1)} s (${((idealMs / floorMs) * 100).toFixed(1)}% of ideal) → signrun run at ${((floorMs / report.durationMs) * 100).toFixed(1)}% of the floor`,
  );
  if (withCeiling) {
    // Its own number of calls (no listings): compared per call with the floor, which made the run's.
    const top = await ceiling(serve.rootUrl, envelopes);
    // The floor again after it: on a loaded machine the two sides are then measured under the same load.
    const floorAfterMs = await floor(serve.rootUrl, report.api.calls);
    const perCallFloor = (floorMs + floorAfterMs) / 2 / report.api.calls;
    const ceilingShare = (perCallFloor * top.calls) / top.ms;
    lines.push(
      `ceiling (the run's own calls, no client work): ${top.calls} calls in ${(top.ms / 1000).toFixed(1)} s, the floor after it ${(floorAfterMs / 1000).toFixed(1)} s → ${(ceilingShare * 100).toFixed(1)}% of the floor (mean of the two), call for call; signrun run at ${(((floorMs / report.durationMs) / ceilingShare) * 100).toFixed(1)}% of the ceiling`,
    );
  }
  if (sequentialSample > 0) {
    const seq = await sequential(serve.rootUrl, sequentialSample);
    const perEnvelopeMs = seq.ms / sequentialSample;
    const projected = perEnvelopeMs * envelopes;
    lines.push(
      `sequential loop (same calls, one at a time): ${sequentialSample} envelopes in ${(seq.ms / 1000).toFixed(1)} s = ${perEnvelopeMs.toFixed(0)} ms/envelope → ${(projected / 1000).toFixed(0)} s for ${envelopes}`,
      `  speedup of signrun run: ${(projected / report.durationMs).toFixed(1)}×`,
    );
  }
  console.log(lines.join('\n'));
} finally {
  serve.child.stderr?.destroy();
  // Wait for the sandbox to close (and, with --profile, to write its profile; with --timeline, its rows).
  await stopServe(serve.child);
  rmSync(dir, { recursive: true, force: true });
}
if (timelineDir) {
  console.log(timelineReport(timelineDir, { slots: concurrency }));
  // --keep-timeline: the rows stay, for a closer look (node bench/lib/timeline-report.mjs DIR).
  if (process.argv.includes('--keep-timeline')) console.log(`timeline rows kept in ${timelineDir}`);
  else rmSync(timelineDir, { recursive: true, force: true });
}
