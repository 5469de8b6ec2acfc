/**
 * Benchmark: envelope creations per second against `signrun serve`, with a
 * 100 KB PDF (base64 in JSON, as most clients send it), 16 connections,
 * autocannon. The sandbox is the real bin in its own process on a data
 * folder (WAL + content-addressed files), so the figure includes the durable
 * writes; every request carries a different document, so every request
 * writes a new file.
 *
 *   npm run build && node bench/sandbox/envelope-creation.mjs [--seconds 10] [--connections 16] [--memory]
 *
 * Plain JavaScript on the built dist/ (the build compiles src/ only).
 */
import autocannon from 'autocannon';
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
const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

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
  const args = [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] : []), bin, 'serve', '--port', '0', ...(dataDir ? ['--data', dataDir] : [])];
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
const auth = JSON.stringify({ Username: 'sandbox@signrun.test', Password: 'sandbox-password', IntegratorKey: 'sandbox-integrator-key' });
const url = `${rootUrl}/accounts/5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11/envelopes`;

// A distinct document per request, cheaply: 16 base64 characters inside the
// padding stream are replaced by a counter (still valid base64, still a PDF).
const b64 = pdf.toString('base64');
const cut = Math.floor((b64.length / 2) / 4) * 4;
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
const warm = await fetch(url, { method: 'POST', headers: { 'x-docusign-authentication': auth, 'content-type': 'application/json' }, body: body() });
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
const load = loadavg()[0];
const threadsBefore = threadCpuMs();
// The bench's own CPU (autocannon and the bodies it sends share the machine's cores with the server).
const clientCpuBefore = process.cpuUsage();
const cpuBefore = cpuMs();
const faultsBefore = minorFaults();
const result = await autocannon({
  url,
  method: 'POST',
  connections,
  duration: seconds,
  headers: { 'x-docusign-authentication': auth, 'content-type': 'application/json' },
  setupClient: (client) => {
    const own = newBody();
    client.setBody(stamp(own));
    client.on('response', () => client.setBody(stamp(own)));
  },
});
const serverCpuMs = cpuMs() - cpuBefore;
const clientCpu = process.cpuUsage(clientCpuBefore);
const serverFaults = minorFaults() - faultsBefore;
const threadsAfter = threadCpuMs();
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
          .map(([name, ms]) => [name, Number(((ms - (threadsBefore[name] ?? 0)) / Math.max(1, result['2xx'])).toFixed(2))])
          .filter(([, ms]) => ms > 0),
      ),
      clientCpuMsPerCreation: Number(((clientCpu.user + clientCpu.system) / 1000 / Math.max(1, result['2xx'])).toFixed(2)),
      serverMinorFaultsPerCreation: Number((serverFaults / Math.max(1, result['2xx'])).toFixed(1)),
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, 1-min load average at start ${load.toFixed(1)}`,
    },
    null,
    2,
  ),
);
