/**
 * Benchmark: envelope creations per second against `signrun serve`, with a
 * 100 KB PDF (base64 in JSON, as most clients send it), 16 connections,
 * autocannon. The sandbox is the real bin in its own process on a data
 * folder (WAL + content-addressed files), so the figure includes the durable
 * writes; every request carries a different document, so every request
 * writes a new file.
 *
 *   npm run build && node bench/sandbox/envelope-creation.mjs [--seconds 10] [--connections 16] [--memory] [--client socket|http|autocannon] [--bin PATH]
 *
 * The client (`--client`): `socket` (the default, as wrk and other load
 * generators do it) writes each connection's whole request, prebuilt in one
 * Buffer with a 16-character counter rewritten in place, on a keep-alive
 * socket and reads the answer's status and length; `http` sends the same
 * body through a keep-alive node:http agent; `autocannon` is the client of
 * the rounds before s47. On two cores the client's CPU is taken
 * from the server's: the figure the target is about is the server's CPU a
 * creation (`serverCpuMsPerCreation`), and `clientCpuMsPerCreation` says
 * what the client cost.
 *
 * Plain JavaScript on the built dist/ (the build compiles src/ only).
 */
import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 10);
const connections = arg('connections', 16);
const inMemory = process.argv.includes('--memory');
const clientIndex = process.argv.indexOf('--client');
const clientKind = clientIndex >= 0 ? process.argv[clientIndex + 1] : 'socket';
if (!['http', 'socket', 'autocannon'].includes(clientKind))
  throw new Error(`--client must be socket, http or autocannon, not ${clientKind}`);
// --bin PATH: serve another build's CLI with this bench's client (side by side against a baseline).
const binIndex = process.argv.indexOf('--bin');
const bin =
  binIndex >= 0 ? process.argv[binIndex + 1] : fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

async function pdfOfAbout(bytes) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText('Benchmark contract', { x: 50, y: 780, size: 14, font });
  // Incompressible padding in an (unreferenced) stream object brings it to the size wanted.
  const base = Buffer.from(await pdf.save({ useObjectStreams: false })).length;
  const padding = Buffer.alloc(Math.max(0, bytes - base - 100));
  for (let i = 0; i < padding.length; i++) padding[i] = 32 + ((i * 7919) % 90);
  pdf.context.register(pdf.context.stream(padding));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

function startServe(dataDir) {
  const args = [
    ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] : []),
    bin,
    'serve',
    '--port',
    '0',
    ...(dataDir ? ['--data', dataDir] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      if (out === null) return; // request log lines after start: drained, not kept
      out += d;
      const m = /sandbox listening on (\S+)\n/.exec(out);
      if (m) {
        out = null;
        resolve({ child, rootUrl: m[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

const dataDir = inMemory ? undefined : mkdtempSync(join(tmpdir(), 'signrun-bench-'));
const { child, rootUrl } = await startServe(dataDir);
const pdf = await pdfOfAbout(100 * 1024);
const auth = JSON.stringify({
  Username: 'sandbox@signrun.test',
  Password: 'sandbox-password',
  IntegratorKey: 'sandbox-integrator-key',
});
const url = `${rootUrl}/accounts/5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11/envelopes`;

// A distinct document per request, cheaply: 16 base64 characters inside the
// padding stream are replaced by a counter (still valid base64, still a PDF).
const b64 = pdf.toString('base64');
const cut = Math.floor(b64.length / 2 / 4) * 4;
const head = `{"emailSubject":"Benchmark","status":"sent","documents":[{"documentId":"1","name":"contract.pdf","documentBase64":"${b64.slice(0, cut)}`;
const tail = `${b64.slice(cut + 16)}"}],"recipients":{"signers":[{"name":"Bench Signer","email":"bench@example.com","recipientId":"1","clientUserId":"b-1","tabs":{"signHereTabs":[{"documentId":"1","pageNumber":"1","xPosition":"100","yPosition":"100"}]}}]}}`;
let counter = 0;
// Each connection sends one Buffer whose 16 counter characters are rewritten before each request
// (autocannon copies a body into its request as it is given). Building and UTF-8 encoding a 137 KB
// string per request, as before, cost this process more CPU than the server spent on the creation
// (clientCpuMsPerCreation below): on two shared cores the bench, not the sandbox, was the limit.
const headBytes = Buffer.from(head);
const tailBytes = Buffer.from(tail);
const newBody = () => Buffer.concat([headBytes, Buffer.alloc(16), tailBytes]);
const stamp = (bytes) => {
  bytes.write(Buffer.from(String(counter++).padStart(12, '0')).toString('base64'), headBytes.length, 'latin1');
  return bytes;
};
const body = () => stamp(newBody());

// Warm-up: the first call verifies the password with scrypt; the cache answers the rest.
const warm = await fetch(url, {
  method: 'POST',
  headers: { 'x-docusign-authentication': auth, 'content-type': 'application/json' },
  body: body(),
});
if (warm.status !== 201) throw new Error(`warm-up answered ${warm.status}: ${await warm.text()}`);

// CPU time the server process spends (Linux /proc): with the machine shared,
// CPU ms per creation says more about the code than requests per second.
const cpuMs = () => {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return NaN;
  }
};
// Minor page faults of the server process (Linux /proc): a count the machine's load hardly changes,
// which shows memory taken fresh from the kernel per creation (large buffers allocated and freed).
const minorFaults = () => {
  try {
    return Number(readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')[7]);
  } catch {
    return NaN;
  }
};
// The same per thread, grouped by thread name (main, libuv pool, V8 helpers),
// to see whether the time is the event loop's or work moved off it.
const threadCpuMs = () => {
  const byName = {};
  try {
    for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
        const name = tid === String(child.pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.split(') ')[1].split(' ');
        byName[name] = (byName[name] ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      } catch {
        // a thread that ended between the listing and the read
      }
    }
  } catch {
    // not Linux
  }
  return byName;
};
// The main thread (the event loop) alone, to the nanosecond (/proc/<pid>/task/<pid>/schedstat: time on a
// CPU, time waiting for one) and its context switches (status: voluntary ones are waits — epoll, or a
// system call that blocks, such as a write the kernel throttles —, involuntary ones are preemptions).
const mainThread = () => {
  try {
    const [runNs, waitNs] = readFileSync(`/proc/${child.pid}/task/${child.pid}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    const status = readFileSync(`/proc/${child.pid}/task/${child.pid}/status`, 'utf8');
    const switches = (kind) => Number(new RegExp(`^${kind}_ctxt_switches:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { runNs, waitNs, voluntary: switches('voluntary'), involuntary: switches('nonvoluntary') };
  } catch {
    return { runNs: NaN, waitNs: NaN, voluntary: NaN, involuntary: NaN };
  }
};
const load = loadavg()[0];
const mainBefore = mainThread();
const threadsBefore = threadCpuMs();
// The bench's own CPU (autocannon and the bodies it sends share the machine's cores with the server).
const clientCpuBefore = process.cpuUsage();
const cpuBefore = cpuMs();
const faultsBefore = minorFaults();
const headers = { 'x-docusign-authentication': auth, 'content-type': 'application/json' };
const result =
  clientKind === 'autocannon'
    ? await runAutocannon()
    : clientKind === 'socket'
      ? await runSocketClient()
      : await runHttpClient();
const serverCpuMs = cpuMs() - cpuBefore;
const clientCpu = process.cpuUsage(clientCpuBefore);
const serverFaults = minorFaults() - faultsBefore;
const threadsAfter = threadCpuMs();
const mainAfter = mainThread();
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
if (dataDir) rmSync(dataDir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      bench: 'sandbox envelope creation (POST …/envelopes, 201)',
      pdfBytes: pdf.length,
      connections,
      seconds,
      storage: inMemory ? 'memory' : 'data folder',
      creationsPerSecond: Math.round(result['2xx'] / seconds),
      totalCreated: result['2xx'],
      failures: result.non2xx + result.errors,
      serverCpuMsPerCreation: Number((serverCpuMs / Math.max(1, result['2xx'])).toFixed(2)),
      serverCpuMsPerCreationByThread: Object.fromEntries(
        Object.entries(threadsAfter)
          .map(([name, ms]) => [
            name,
            Number(((ms - (threadsBefore[name] ?? 0)) / Math.max(1, result['2xx'])).toFixed(2)),
          ])
          .filter(([, ms]) => ms > 0),
      ),
      mainThreadPerCreation: {
        cpuMs: Number(((mainAfter.runNs - mainBefore.runNs) / 1e6 / Math.max(1, result['2xx'])).toFixed(3)),
        runQueueWaitMs: Number(((mainAfter.waitNs - mainBefore.waitNs) / 1e6 / Math.max(1, result['2xx'])).toFixed(3)),
        voluntarySwitches: Number(
          ((mainAfter.voluntary - mainBefore.voluntary) / Math.max(1, result['2xx'])).toFixed(2),
        ),
        involuntarySwitches: Number(
          ((mainAfter.involuntary - mainBefore.involuntary) / Math.max(1, result['2xx'])).toFixed(2),
        ),
      },
      clientCpuMsPerCreation: Number(
        ((clientCpu.user + clientCpu.system) / 1000 / Math.max(1, result['2xx'])).toFixed(2),
      ),
      serverMinorFaultsPerCreation: Number((serverFaults / Math.max(1, result['2xx'])).toFixed(1)),
      client: clientKind,
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, 1-min load average at start ${load.toFixed(1)}`,
    },
    null,
    2,
  ),
);

// The client of the rounds before s47. It copies each body into a new request buffer (137 KB a request).
function runAutocannon() {
  return autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers,
    setupClient: (client) => {
      const own = newBody();
      client.setBody(stamp(own));
      client.on('response', () => client.setBody(stamp(own)));
    },
  });
}

// A lean load generator: `connections` workers, each on its own keep-alive socket, each sending its own
// Buffer with the counter rewritten (the previous request's bytes are all written by then: its answer
// has come back). Latency is measured per request from the write to the end of the answer.
async function runHttpClient() {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const latencies = [];
  const counts = { ok: 0, non2xx: 0, errors: 0 };
  const until = performance.now() + seconds * 1000;
  const sendOne = (bytes) =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': bytes.length } },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            if (res.statusCode >= 200 && res.statusCode < 300) counts.ok++;
            else counts.non2xx++;
            latencies.push(performance.now() - started);
            resolve();
          });
        },
      );
      req.on('error', () => {
        counts.errors++;
        resolve();
      });
      req.end(bytes);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const own = newBody();
      while (performance.now() < until) await sendOne(stamp(own));
    }),
  );
  agent.destroy();
  return summary(latencies, counts);
}

function summary(latencies, counts) {
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return {
    '2xx': counts.ok,
    non2xx: counts.non2xx,
    errors: counts.errors,
    latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: Math.round(latencies.at(-1) ?? NaN) },
  };
}

// The leanest client: one socket per worker, each with its whole request (head and body) prebuilt in one
// Buffer whose counter is rewritten in place; the answer's head is read for its status and length.
async function runSocketClient() {
  const { host, port, pathname } = new URL(url);
  const latencies = [];
  const counts = { ok: 0, non2xx: 0, errors: 0 };
  const until = performance.now() + seconds * 1000;
  const bodyLength = headBytes.length + 16 + tailBytes.length;
  const requestHead = Buffer.from(
    `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\nx-docusign-authentication: ${auth}\r\ncontent-type: application/json\r\ncontent-length: ${bodyLength}\r\nconnection: keep-alive\r\n\r\n`,
  );
  const worker = () =>
    new Promise((resolve) => {
      const own = Buffer.concat([requestHead, newBody()]);
      const counterAt = requestHead.length + headBytes.length;
      const socket = connect(Number(port), host.split(':')[0]);
      socket.setNoDelay(true);
      let pending = Buffer.alloc(0);
      let started = 0;
      const send = () => {
        if (performance.now() >= until) {
          socket.end();
          resolve();
          return;
        }
        own.write(Buffer.from(String(counter++).padStart(12, '0')).toString('base64'), counterAt, 'latin1');
        started = performance.now();
        socket.write(own);
      };
      socket.on('data', (chunk) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.toString('latin1', 0, headEnd);
        if (/transfer-encoding/i.test(head))
          throw new Error('the socket client reads answers with a content-length only');
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < headEnd + 4 + length) return;
        pending = pending.subarray(headEnd + 4 + length);
        const status = Number(head.slice(9, 12));
        if (status >= 200 && status < 300) counts.ok++;
        else counts.non2xx++;
        latencies.push(performance.now() - started);
        send();
      });
      // A connection that fails, or that the server closes before the time is up, ends this worker: one error.
      let ended = false;
      const fail = () => {
        if (!ended) counts.errors++;
        ended = true;
        resolve();
      };
      socket.on('error', fail);
      socket.on('close', () => (performance.now() < until ? fail() : resolve()));
      socket.on('connect', send);
    });
  await Promise.all(Array.from({ length: connections }, worker));
  return summary(latencies, counts);
}
