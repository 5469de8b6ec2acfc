/**
 * Benchmark of `signrun sync`: N envelopes (one document, one remote signer
 * each) sent by `signrun run` to `signrun serve --latency L` in its own
 * process; S of them are then signed over HTTP from the links in the
 * sandbox's outbox. Measures `signrun sync` (the first: listing + collecting
 * the S completed envelopes; the second: listing only, nothing new to
 * download): wall time and API calls by operation, from report.json, and
 * the calls per completed envelope (documents and certificate; with form
 * data) and per envelope whose state did not change (issue 24). For
 * comparison, the same statuses asked one envelope at a time (GET
 * …/envelopes/{id}, what DocuSign's polling rule forbids) on a sample,
 * extrapolated to N at the same concurrency.
 *
 *   npm run build && node bench/sync/sync-bench.mjs [--envelopes 1000] [--signed 50] [--latency 50] [--concurrency 8]
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, numberArg, root, sandboxCredentials, sandboxEnv, startServe, stopServe } from '../lib/bench-kit.mjs';

const envelopes = numberArg('envelopes', 1000);
const signed = numberArg('signed', 50);
const latency = numberArg('latency', 50);
const concurrency = numberArg('concurrency', 8);

function cli(args, dir, rootUrl) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: sandboxEnv(rootUrl), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

function jobFolder(n) {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-bench-sync-'));
  mkdirSync(join(dir, 'docs'));
  mkdirSync(join(dir, 'data'));
  copyFileSync(join(root, 'examples/docs/offer-letter.pdf'), join(dir, 'docs/offer-letter.pdf'));
  const rows = ['id,name,email'];
  for (let i = 1; i <= n; i += 1) rows.push(`E${10000 + i},Employee ${i},employee${i}@example.com`);
  writeFileSync(join(dir, 'data/people.csv'), `${rows.join('\n')}\n`);
  writeFileSync(
    join(dir, 'sync-bench.yaml'),
    [
      'version: 1',
      'job: sync-bench',
      'defaults: { emailSubject: Please sign, status: sent }',
      'envelopes:',
      '  - key: e-${row.id}',
      '    forEach: { csv: data/people.csv }',
      '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
      '    recipients:',
      '      - name: ${row.name}',
      '        email: ${row.email}',
      '        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
      '',
    ].join('\n'),
  );
  return dir;
}

/** Signs one remote recipient's envelope from the link in the outbox, as the signing page's form does. */
async function signFromOutbox(origin, email) {
  const res = await fetch(`${origin}/sandbox/outbox?format=json&to=${encodeURIComponent(email)}`);
  const { messages } = await res.json();
  const link = messages[0].links.find((l) => l.includes('/signing/'));
  const first = await fetch(link, { redirect: 'manual' });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const sessionUrl = new URL(first.headers.get('location'), link).toString();
  const html = await (await fetch(sessionUrl, { headers: { cookie } })).text();
  const csrf = /name="csrfToken" value="([^"]+)"/.exec(html)[1];
  const done = await fetch(`${sessionUrl}/sign`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signatureName: email, csrfToken: csrf }).toString(),
  });
  if (done.status !== 303) throw new Error(`signing answered ${done.status}`);
}

const { child, rootUrl } = await startServe(latency);
const origin = new URL(rootUrl).origin;
const dir = jobFolder(envelopes);
try {
  const sent = await cli(['run', '.', '--out', 'out', '--concurrency', '16'], dir, rootUrl);
  if (sent.code !== 0) throw new Error(`run failed:\n${sent.out}`);
  // Signed `concurrency` at a time: the signings are the set-up, not what is measured.
  for (let i = 1; i <= signed; i += concurrency) {
    const batch = [];
    for (let j = i; j < Math.min(i + concurrency, signed + 1); j += 1) batch.push(signFromOutbox(origin, `employee${j}@example.com`));
    await Promise.all(batch);
  }

  const first = await cli(['sync', '.', '--out', 'out', '--force'], dir, rootUrl);
  if (first.code !== 0) throw new Error(`sync failed:\n${first.out}`);
  const r1 = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
  const second = await cli(['sync', '.', '--out', 'out', '--force'], dir, rootUrl);
  const r2 = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
  const completed = r1.envelopes.filter((e) => e.status === 'completed').length;

  // The per-envelope alternative: GET …/envelopes/{id} for a sample, `concurrency` at a time.
  const login = await (await fetch(`${rootUrl}/login_information`, { headers: { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials) } })).json();
  const base = login.loginAccounts[0].baseUrl;
  const ids = r1.envelopes.slice(0, 100).map((e) => e.envelopeId);
  const auth = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials) };
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ids.length; i += concurrency)
    await Promise.all(ids.slice(i, i + concurrency).map(async (id) => (await fetch(`${base}/envelopes/${id}`, { headers: auth })).json()));
  const perEnvelopeMs = (Number(process.hrtime.bigint() - t0) / 1e6 / ids.length) * envelopes;

  const ops = (r) => Object.entries(r.api.byOperation).map(([k, v]) => `${k} ${v}`).join(', ');
  // Calls per completed envelope (issue 24): what the first sync spent beyond logging in and
  // listing, over the envelopes it found completed; documents and certificate apart from form data.
  const count = (r, ...names) => names.reduce((sum, n) => sum + (r.api.byOperation[n] ?? 0), 0);
  const documentCalls = count(r1, 'downloadArchive', 'listDocuments', 'downloadDocument', 'downloadCertificate');
  const formDataCalls = count(r1, 'listRecipients');
  const listingCalls = count(r1, 'listEnvelopes');
  const overhead = count(r1, 'loginInformation') + listingCalls;
  const unchanged = (r2.api.calls - count(r2, 'loginInformation', 'listEnvelopes')) / envelopes;
  console.log(
    [
      `signrun sync: ${envelopes} envelopes, ${completed} completed (signed ${signed}), latency ${latency} ms, ${cpus().length} CPUs`,
      `  first sync:  ${(first.ms / 1000).toFixed(2)} s, ${r1.api.calls} calls (${ops(r1)})`,
      `  second sync: ${(second.ms / 1000).toFixed(2)} s, ${r2.api.calls} calls (${ops(r2)})`,
      `  calls per completed envelope: ${(documentCalls / completed).toFixed(3)} for documents and certificate, ${((documentCalls + formDataCalls) / completed).toFixed(3)} with form data (${((r1.api.calls - overhead) / completed).toFixed(3)} of all but login and listings); listings ${listingCalls} for ${envelopes} envelopes (${((listingCalls / envelopes) * 100).toFixed(2)} per 100)`,
      `  calls per envelope whose state did not change (second sync): ${unchanged.toFixed(3)}`,
      `  one GET per envelope instead (sample of ${ids.length}, ${concurrency} at a time, extrapolated): ${envelopes} calls, ${(perEnvelopeMs / 1000).toFixed(2)} s`,
    ].join('\n'),
  );
} finally {
  await stopServe(child);
  rmSync(dir, { recursive: true, force: true });
}
