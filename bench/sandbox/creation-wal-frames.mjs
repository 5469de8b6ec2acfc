/**
 * Counts what an envelope creation writes to SQLite's WAL: frames (pages) a
 * creation, with the sandbox app in this process (fastify inject, no
 * sockets) on a data folder, the same 100 KB document envelope as
 * envelope-creation.mjs. A count, not a time: the machine's load does not
 * move it, so two builds can be compared on a busy machine. The WAL's
 * automatic checkpoint is turned off for the count (frames are counted, not
 * copied back); the creations' own statements are unchanged.
 *
 *   npm run build && node bench/sandbox/creation-wal-frames.mjs [--creations 2000] [--concurrency 3]
 *
 * --concurrency: creations in flight at once (the group commit puts those that finish parsing in the
 * same turn of the event loop in one transaction: 3 gives about the 2.5 creations a commit of the
 * socket bench, 16 about 7).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { buildSandboxApp } from '../../dist/sandbox/app.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const creations = arg('creations', 2000);
const concurrency = arg('concurrency', 3);

const pdf0 = await PDFDocument.create();
const font = await pdf0.embedFont(StandardFonts.Helvetica);
pdf0.addPage([595, 842]).drawText('Benchmark contract', { x: 50, y: 780, size: 14, font });
const padding = Buffer.alloc(100 * 1024);
for (let i = 0; i < padding.length; i++) padding[i] = 32 + ((i * 7919) % 90);
pdf0.context.register(pdf0.context.stream(padding));
const b64 = Buffer.from(await pdf0.save({ useObjectStreams: false })).toString('base64');
const cut = Math.floor(b64.length / 2 / 4) * 4;
const head = `{"emailSubject":"Benchmark","status":"sent","documents":[{"documentId":"1","name":"contract.pdf","documentBase64":"${b64.slice(0, cut)}`;
const tail = `${b64.slice(cut + 16)}"}],"recipients":{"signers":[{"name":"Bench Signer","email":"bench@example.com","recipientId":"1","clientUserId":"b-1","tabs":{"signHereTabs":[{"documentId":"1","pageNumber":"1","xPosition":"100","yPosition":"100"}]}}]}}`;
let counter = 0;
// A distinct document per creation (16 base64 characters of the padding replaced by a counter).
const body = () => Buffer.from(`${head}${Buffer.from(String(counter++).padStart(12, '0')).toString('base64')}${tail}`);
const auth = JSON.stringify({ Username: 'sandbox@signrun.test', Password: 'sandbox-password', IntegratorKey: 'sandbox-integrator-key' });
const url = '/restapi/v2.1/accounts/5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11/envelopes';

const dataDir = mkdtempSync(join(tmpdir(), 'signrun-frames-'));
const app = await buildSandboxApp({ dataDir });
const one = async () => {
  const r = await app.inject({
    method: 'POST',
    url,
    headers: { 'x-docusign-authentication': auth, 'content-type': 'application/json', host: '127.0.0.1' },
    payload: body(),
  });
  if (r.statusCode !== 201) throw new Error(`${r.statusCode} ${r.body}`);
};
// Warm-up (the first call verifies the password; the tables get their first pages), then count from an empty WAL.
for (let i = 0; i < 200; i++) await one();
const { db } = app.sandbox;
db.pragma('wal_checkpoint(TRUNCATE)');
db.pragma('wal_autocheckpoint = 0');
let started = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (started < creations) {
      started++;
      await one();
    }
  }),
);
const frames = db.pragma('wal_checkpoint(PASSIVE)')[0].log;
await app.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      bench: 'WAL frames a sandbox envelope creation (in process)',
      creations,
      concurrency,
      walFramesPerCreation: Number((frames / creations).toFixed(2)),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, 1-min load average ${loadavg()[0].toFixed(1)}`,
    },
    null,
    2,
  ),
);
