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
 * `--form-data`: each envelope also has two text tabs (one prefilled and
 * locked, one the signer types into), so form-data.json holds values; sync
 * takes them from the status listing (`include=recipients,tabs`, issue 37),
 * and report.json's `formData` says where each came from.
 * `--connect`: `signrun listen` runs beside the sandbox, and the account has
 * a Connect configuration (envelope-completed, HMAC, `includeData:
 * [recipients, tabs]`) publishing to it; once listen has kept the form data
 * of every signed envelope, `signrun sync` runs on the output folder (form
 * data from Connect) and, side by side, on a copy of it made before any
 * signing (form data read by a call per envelope, as without Connect).
 *
 *   npm run build && node bench/sync/sync-bench.mjs [--envelopes 1000] [--signed 50] [--latency 50] [--concurrency 8] [--form-data] [--connect]
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, numberArg, root, sandboxCredentials, sandboxEnv, startServe, stopServe } from '../lib/bench-kit.mjs';

const envelopes = numberArg('envelopes', 1000);
const signed = numberArg('signed', 50);
const latency = numberArg('latency', 50);
const concurrency = numberArg('concurrency', 8);
const withFormData = process.argv.includes('--form-data');
const withConnect = process.argv.includes('--connect');
/** The HMAC key the sandbox's default seed signs Connect messages with, and listen checks. */
const connectHmacKey = 'sandbox-connect-hmac-key';

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
      ...(withFormData
        ? [
            '        tabs:',
            '          signHereTabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
            '          textTabs:',
            '            - { tabLabel: Employee ID, value: "${row.id}", locked: true, documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 200 }',
            '            - { tabLabel: Preferred name, required: false, documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 250 }',
          ]
        : ['        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]']),
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
  const form = { signatureName: email, csrfToken: csrf };
  // Types into every editable text field of the page (the locked ones are read-only), as a person would.
  for (const [, name] of html.matchAll(/<input id="[^"]*" type="text" name="(tab\.[^"]+)" value="[^"]*"(?! readonly)/g)) {
    form[name] = `typed by ${email}`;
    form.fieldsShown = '1';
  }
  const done = await fetch(`${sessionUrl}/sign`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  if (done.status !== 303) throw new Error(`signing answered ${done.status}`);
}

/** `signrun listen` in the job folder (its state: out/.signrun); resolves with its address once it listens. */
function startListen(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'listen', '--port', '0', '--out', 'out'], {
      cwd: dir,
      env: { ...process.env, DOCUSIGN_CONNECT_HMAC_KEYS: connectHmacKey },
      // Its stderr says only how it stops (Ctrl-C): drained, not shown.
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`listen exited ${code}`)));
  });
}

/** Waits (at most 10 minutes) until listen has kept the form data of `n` envelopes. */
async function keptFormData(dir, n) {
  const folder = join(dir, 'out/.signrun/connect-form-data');
  const deadline = Date.now() + 600_000;
  for (;;) {
    let kept = 0;
    try {
      kept = readdirSync(folder).filter((f) => f.endsWith('.json')).length;
    } catch {
      // not made yet
    }
    if (kept >= n) return;
    if (Date.now() > deadline) throw new Error(`listen kept the form data of ${kept} envelopes of ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One sync of an output folder: its wall time and report. */
async function syncOf(dir, rootUrl, out) {
  const run = await cli(['sync', '.', '--out', out, '--force'], dir, rootUrl);
  if (run.code !== 0) throw new Error(`sync failed:\n${run.out}`);
  return { ...run, report: JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) };
}

const ops = (r) => Object.entries(r.api.byOperation).map(([k, v]) => `${k} ${v}`).join(', ');
const count = (r, ...names) => names.reduce((sum, n) => sum + (r.api.byOperation[n] ?? 0), 0);

/**
 * Calls per completed envelope (issue 24): what a first sync spent beyond
 * logging in and listing, over the envelopes it found completed; documents
 * and certificate apart from form data.
 */
function perCompleted(r) {
  const completed = r.envelopes.filter((e) => e.status === 'completed').length;
  const documentCalls = count(r, 'downloadArchive', 'listDocuments', 'downloadDocument', 'downloadCertificate');
  const formDataCalls = count(r, 'listRecipients');
  const listingCalls = count(r, 'listEnvelopes');
  const overhead = count(r, 'loginInformation') + listingCalls;
  return `${(documentCalls / completed).toFixed(3)} for documents and certificate, ${((documentCalls + formDataCalls) / completed).toFixed(3)} with form data (${((r.api.calls - overhead) / completed).toFixed(3)} of all but login and listings); listings ${listingCalls} for ${r.envelopes.length} envelopes (${((listingCalls / r.envelopes.length) * 100).toFixed(2)} per 100)`;
}

const { child, rootUrl } = await startServe(latency);
const origin = new URL(rootUrl).origin;
const dir = jobFolder(envelopes);
let listener;
try {
  const login = await (await fetch(`${rootUrl}/login_information`, { headers: { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials) } })).json();
  const base = login.loginAccounts[0].baseUrl;
  const auth = { 'X-DocuSign-Authentication': JSON.stringify(sandboxCredentials) };
  if (withConnect) {
    listener = await startListen(dir);
    // The account's Connect configuration, as DocuSign's settings make it: completed envelopes, HMAC, recipients and tabs.
    const res = await fetch(`${base}/connect`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'signrun listen',
        urlToPublishTo: `${listener.url}/connect`,
        allUsers: 'true',
        includeHMAC: 'true',
        events: ['envelope-completed'],
        eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients', 'tabs'] },
      }),
    });
    if (res.status !== 201) throw new Error(`Connect configuration: ${res.status} ${await res.text()}`);
  }
  const sent = await cli(['run', '.', '--out', 'out', '--concurrency', '16'], dir, rootUrl);
  if (sent.code !== 0) throw new Error(`run failed:\n${sent.out}`);
  // The same envelopes for a sync without Connect: the output folder and its state before any signing.
  if (withConnect) cpSync(join(dir, 'out'), join(dir, 'out-poll'), { recursive: true });
  // Signed `concurrency` at a time: the signings are the set-up, not what is measured.
  for (let i = 1; i <= signed; i += concurrency) {
    const batch = [];
    for (let j = i; j < Math.min(i + concurrency, signed + 1); j += 1) batch.push(signFromOutbox(origin, `employee${j}@example.com`));
    await Promise.all(batch);
  }
  const t0Connect = process.hrtime.bigint();
  if (withConnect) await keptFormData(dir, signed);
  const connectMs = Number(process.hrtime.bigint() - t0Connect) / 1e6;

  const first = await syncOf(dir, rootUrl, 'out');
  const second = await syncOf(dir, rootUrl, 'out');
  const polled = withConnect ? await syncOf(dir, rootUrl, 'out-poll') : undefined;
  const r1 = first.report;
  const r2 = second.report;
  const completed = r1.envelopes.filter((e) => e.status === 'completed').length;

  // The per-envelope alternative: GET …/envelopes/{id} for a sample, `concurrency` at a time.
  const ids = r1.envelopes.slice(0, 100).map((e) => e.envelopeId);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ids.length; i += concurrency)
    await Promise.all(ids.slice(i, i + concurrency).map(async (id) => (await fetch(`${base}/envelopes/${id}`, { headers: auth })).json()));
  const perEnvelopeMs = (Number(process.hrtime.bigint() - t0) / 1e6 / ids.length) * envelopes;

  // The two paths wrote the same form-data.json for every completed envelope (each sync dates its own).
  const formDataOf = (out, key) => {
    const { readAt: _readAt, ...rest } = JSON.parse(readFileSync(join(dir, out, 'sync-bench', key, 'form-data.json'), 'utf8'));
    return JSON.stringify(rest);
  };
  const completedKeys = r1.envelopes.filter((e) => e.status === 'completed').map((e) => e.key);
  const differing = polled ? completedKeys.filter((key) => formDataOf('out', key) !== formDataOf('out-poll', key)).length : 0;
  const typed = withFormData ? completedKeys.filter((key) => formDataOf('out', key).includes('typed by')).length : 0;
  const unchanged = (r2.api.calls - count(r2, 'loginInformation', 'listEnvelopes')) / envelopes;
  const mode = [withFormData ? 'text tabs typed' : '', withConnect ? 'Connect to signrun listen' : ''].filter(Boolean).join(', ');
  console.log(
    [
      `signrun sync: ${envelopes} envelopes, ${completed} completed (signed ${signed}), latency ${latency} ms, ${cpus().length} CPUs${mode ? `; ${mode}` : ''}`,
      ...(withConnect ? [`  listen kept the form data of ${signed} envelopes ${(connectMs / 1000).toFixed(2)} s after the last signing`] : []),
      `  first sync${withConnect ? ' (form data from Connect)' : ''}:  ${(first.ms / 1000).toFixed(2)} s, ${r1.api.calls} calls (${ops(r1)})`,
      `  second sync: ${(second.ms / 1000).toFixed(2)} s, ${r2.api.calls} calls (${ops(r2)})`,
      `  calls per completed envelope: ${perCompleted(r1)}`,
      `  form data (report.json formData): ${JSON.stringify(r1.formData ?? {})}`,
      ...(polled
        ? [
            `  first sync of a copy made before signing (form data read by a call, as without Connect): ${(polled.ms / 1000).toFixed(2)} s, ${polled.report.api.calls} calls (${ops(polled.report)})`,
            `  calls per completed envelope, that copy: ${perCompleted(polled.report)}`,
            `  form-data.json of the ${completedKeys.length} completed envelopes, Connect against the copy (readAt aside): ${differing === 0 ? 'identical' : `${differing} differ`}${withFormData ? `, ${typed} holding the text typed at signing` : ''}`,
          ]
        : []),
      `  calls per envelope whose state did not change (second sync): ${unchanged.toFixed(3)}`,
      `  one GET per envelope instead (sample of ${ids.length}, ${concurrency} at a time, extrapolated): ${envelopes} calls, ${(perEnvelopeMs / 1000).toFixed(2)} s`,
    ].join('\n'),
  );
} finally {
  if (listener) {
    const exited = new Promise((resolve) => listener.child.once('exit', resolve));
    listener.child.kill('SIGINT');
    await exited;
  }
  await stopServe(child);
  rmSync(dir, { recursive: true, force: true });
}
