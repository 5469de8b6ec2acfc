/**
 * Chaos benchmark (issue 6, "done when"): `signrun run` on an N-envelope job
 * (default 500, from the sandbox's stored template, two embedded signers)
 * against `signrun serve --data … --faults SPEC` (default all=0.1: 10% of API
 * calls fail, spread evenly over 429, 500, 503, reset before / after
 * processing, slow and truncated downloads). Optionally the runner is killed
 * with SIGKILL at random moments (--runner-kills K: the first K runs die
 * after a random delay) and the sandbox is killed with SIGKILL mid-run and
 * restarted on the same port and data (--sandbox-kills K). Then it re-runs
 * until a run exits 0 (a re-run is how a user recovers) or --max-runs.
 *
 * With --kill-after-requests W, a kill is not timed: it lands once the
 * sandbox has answered a seeded 1 to W of that run's API requests (counted
 * from serve's request log), so the killed run is surely mid-work whatever
 * the machine's load, and a small job is enough (the test suite's way).
 *
 * Checked at the end, from the sandbox's own database and the outputs:
 * - exactly once: every identity custom field (`signrun`) on exactly one envelope;
 * - complete: every envelope succeeded and is in report.json;
 * - files: every file's sha256 on disk equals report.json's;
 * - nothing answered 201 lost: every envelopeId of the report exists in the database;
 * - promises kept (issue 25): every output each state folder's journal records
 *   is on disk — signing.json of the envelope the journal and the service
 *   hold, with an address for every journalled view whose token the
 *   sandbox issued for that envelope; every journalled document and
 *   certificate with its sha256 — and every envelope has its signing.json.
 *
 * With --shards N, every run is N processes in parallel (`run --shard K/N`,
 * each with its own --out), and the checks read the merged report
 * (`signrun report merge`).
 *
 * With --race N, every run is N processes started at once on the same job,
 * each with its own --out and state (issue 10: CI pipelines from fresh
 * checkouts, no shared disk); each race's report must account for every
 * envelope, and the service must hold each identity once.
 *
 * With --twins, every run is two processes started at once on the same
 * --out (issue 6: "two runs of the same job started at once"): one holds the
 * state lock, the other must refuse with SR_STATE_LOCKED (exit 2, nothing
 * sent); `lockRefusals` counts those refusals.
 *
 * --no-snapshot runs the work tree's dist/ as it is (the test suite, which has
 * just built it, uses this; see test/chaos/).
 *
 *   npm run build && node bench/chaos/chaos.mjs [--envelopes 500] [--faults all=0.1] [--seed 1]
 *     [--runner-kills 0] [--sandbox-kills 0] [--kill-window 3000] [--kill-after-requests W] [--shards 1] [--burst-limit N] [--hourly-limit N] [--max-runs 5] [--concurrency 8] [--twins] [--race N] [--documents at-send|on-completion] [--no-snapshot] [--json] [--keep]
 *
 * Plain JavaScript on the built dist/ (the build compiles src/ only). Exits
 * 1 when a check fails, so it can gate a change.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { seededRandom } from '../../dist/sandbox/platform/faults/seeded-random.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const envelopes = Number(arg('envelopes', '500'));
const faults = arg('faults', 'all=0.1');
const seed = Number(arg('seed', '1'));
const runnerKills = Number(arg('runner-kills', '0'));
const sandboxKills = Number(arg('sandbox-kills', '0'));
const maxRuns = Number(arg('max-runs', '5'));
const shards = Number(arg('shards', '1'));
// Kills land 0.5 s + up to this many ms into a run: short, so that each killed
// run has done some work but not all of it, whatever the size of the job.
const killWindowMs = Number(arg('kill-window', '3000'));
// Or, with --kill-after-requests W, once 1 to W of the run's API requests are answered (a barrier, not a timer).
const killAfterRequests = arg('kill-after-requests', undefined);
const killWindowRequests = killAfterRequests === undefined ? undefined : Number(killAfterRequests);
// Passed to serve: DocuSign's limits, to see the run wait for them instead of failing.
const burstLimit = arg('burst-limit', undefined);
const hourlyLimit = arg('hourly-limit', undefined);
const concurrency = Number(arg('concurrency', '8'));
const asJson = process.argv.includes('--json');
const twins = process.argv.includes('--twins');
const useSnapshot = !process.argv.includes('--no-snapshot');
const keep = process.argv.includes('--keep');
const job = `chaos-${envelopes}`;
const say = (line) => {
  if (!asJson) process.stderr.write(`${line}\n`);
};

// The sandbox's own seeded PRNG: the kill moments are reproducible from --seed.
const random = seededRandom(seed * 7919 + 17);

const work = mkdtempSync(join(tmpdir(), 'signrun-chaos-'));

// A private copy of the built code: the work tree's dist/ may be rebuilt while
// the benchmark runs (a half-written dist/ would fail runs for reasons that
// have nothing to do with faults). node_modules is linked, not copied.
const repo = fileURLToPath(new URL('../../', import.meta.url));
const snapshot = useSnapshot ? join(work, 'signrun') : repo;
// Only to check a copied dist/ parses: loading typescript costs about 1.6 s of CPU, which --no-snapshot spares.
const ts = useSnapshot ? (await import('typescript')).default : undefined;
for (let attempt = 1; useSnapshot; attempt++) {
  rmSync(snapshot, { recursive: true, force: true });
  for (const part of ['dist', 'schemas', 'package.json'])
    cpSync(join(repo, part), join(snapshot, part), { recursive: true });
  // Copied in the middle of someone's build? Every file must at least parse.
  const broken = readdirSync(join(snapshot, 'dist'), { recursive: true })
    .filter((f) => f.endsWith('.js'))
    .filter(
      (f) =>
        ts.transpileModule(readFileSync(join(snapshot, 'dist', f), 'utf8'), { reportDiagnostics: true }).diagnostics
          ?.length,
    );
  if (broken.length === 0) break;
  if (attempt === 6) throw new Error(`dist/ does not parse (${broken.join(', ')}): run npm run build`);
  say(`dist/ is being rebuilt (${broken[0]} does not parse); copying again in 5 s`);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
}
if (useSnapshot) symlinkSync(join(repo, 'node_modules'), join(snapshot, 'node_modules'), 'dir');
const bin = join(snapshot, 'dist', 'cli', 'bin.js');
const dataDir = join(work, 'data');
const outDir = join(work, 'out');
// --race N (issue 10): every run is N processes started at once on the same job, each with its own --out and
// state (CI pipelines from fresh checkouts): the service alone must keep each contract to one envelope.
const race = Number(arg('race', '1'));
// Documents and certificates right after sending by default: the truncated-download faults need downloads to meet.
const documentsWhen = arg('documents', 'at-send');
const outDirs =
  shards > 1
    ? Array.from({ length: shards }, (_, i) => join(outDir, `shard-${i + 1}`))
    : race > 1
      ? Array.from({ length: race }, (_, i) => join(outDir, `race-${i + 1}`))
      : [outDir];
mkdirSync(join(work, 'jobs', 'data'), { recursive: true });
mkdirSync(dataDir);
writeFileSync(
  join(work, 'jobs', 'data', 'people.csv'),
  [
    'id,name,email',
    ...Array.from({ length: envelopes }, (_, i) => `${String(i).padStart(5, '0')},Person ${i},person${i}@example.com`),
  ].join('\n') + '\n',
);
writeFileSync(
  join(work, 'jobs', 'chaos.yaml'),
  `version: 1
job: ${job}
defaults:
  returnUrl: https://hr.example.com/signing-done
envelopes:
  - key: contract-\${row.id}
    forEach: { csv: data/people.csv }
    emailSubject: Your contract
    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01
    templateRoles:
      - { roleName: employee, name: "\${row.name}", email: "\${row.email}", clientUserId: "emp-\${row.id}" }
      - { roleName: employer, name: Thomas Keller, email: thomas.keller@example.com, clientUserId: mgr-0003 }
`,
);

/** Every child still running (serve, runs, merge): ended with this process when it is stopped (a test's time-out). */
const live = new Set();
function track(child) {
  live.add(child);
  child.on('close', () => live.delete(child));
  return child;
}
process.once('SIGTERM', () => {
  for (const child of live) child.kill('SIGKILL');
  if (!keep) rmSync(work, { recursive: true, force: true });
  process.exit(143);
});

/** The sandbox process; replaced when it is killed and restarted. */
let serve;
let rootUrl;
const injected = {};
let apiRequests = 0;
/** Sandbox kills that happened (a kill due after its run ended is not made). */
let sandboxKilled = 0;
/** API requests the sandbox has answered (its request log's lines), across restarts; and who waits on a count. */
let answered = 0;
let answeredWaiters = [];
/** Resolves once `count` more API requests than now have been answered. */
function afterAnswered(count) {
  const target = answered + count;
  return new Promise((resolve) => answeredWaiters.push({ target, resolve }));
}
function countAnswered(line) {
  // The request log names the route pattern and the status: "POST /restapi/v2/accounts/:accountId/envelopes 201 …".
  if (!/^[A-Z]+ \/restapi\/\S+ \d{3}\b/.test(line)) return;
  answered += 1;
  const due = answeredWaiters.filter((w) => w.target <= answered);
  answeredWaiters = answeredWaiters.filter((w) => w.target > answered);
  for (const w of due) w.resolve();
}

function startServe(port = 0) {
  const child = track(spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--port',
      String(port),
      '--data',
      dataDir,
      '--faults',
      faults,
      '--fault-seed',
      String(seed),
      ...(burstLimit ? ['--burst-limit', burstLimit] : []),
      ...(hourlyLimit ? ['--hourly-limit', hourlyLimit] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  ));
  return new Promise((resolve, reject) => {
    let out = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      if (out === null) {
        // Request log lines: counted (the request-count kills wait on them), not kept.
        const lines = (partial + d).split('\n');
        partial = lines.pop();
        for (const line of lines) countAnswered(line);
        return;
      }
      out += d;
      const m = /sandbox listening on (\S+)\n/.exec(out);
      if (m) {
        out = null;
        serve = child;
        rootUrl = m[1];
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

/** Adds the running sandbox's fault counts to the totals (each process counts from zero). */
async function collectFaults() {
  const report = await fetch(new URL('/sandbox/faults', rootUrl))
    .then((r) => r.json())
    .catch(() => undefined);
  if (!report) return;
  apiRequests += report.apiRequests;
  for (const [k, n] of Object.entries(report.injected)) injected[k] = (injected[k] ?? 0) + n;
}

async function stopServe(signal) {
  const closed = new Promise((resolve) => serve.on('close', resolve));
  serve.kill(signal);
  await closed;
}

function runOnce({ killAfterMs, sandboxKillAfterMs, killAfterAnswers, sandboxKillAfterAnswers } = {}) {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DOCUSIGN_'))),
    NO_COLOR: '1',
    DOCUSIGN_ROOT_URL: rootUrl,
    DOCUSIGN_USERNAME: 'sandbox@signrun.test',
    DOCUSIGN_PASSWORD: 'sandbox-password',
    DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key',
  };
  const started = performance.now();
  const processes = outDirs.flatMap((out, i) => (twins ? [{ out, i }, { out, i }] : [{ out, i }]));
  const children = processes.map(({ out, i }) => {
    const shardArgs = shards > 1 ? ['--shard', `${i + 1}/${shards}`] : [];
    const child = track(spawn(
      process.execPath,
      [bin, 'run', 'jobs/chaos.yaml', '--out', out, '--concurrency', String(concurrency), '--documents', documentsWhen, ...shardArgs],
      {
        cwd: work,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ));
    const result = { stdout: '', stderr: '' };
    child.stdout.on('data', (d) => (result.stdout += d));
    child.stderr.on('data', (d) => (result.stderr += d));
    result.closed = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    return { child, result };
  });
  const timers = [];
  let ended = false;
  const killRunners = () => {
    if (!ended) children.forEach(({ child }) => child.kill('SIGKILL'));
  };
  const killSandbox = async (when) => {
    if (ended) return;
    const port = new URL(rootUrl).port;
    await collectFaults();
    await stopServe('SIGKILL');
    sandboxKilled += 1;
    say(`  sandbox killed with SIGKILL ${when}; restarting on port ${port}`);
    await startServe(Number(port));
  };
  if (killAfterMs !== undefined) timers.push(setTimeout(killRunners, killAfterMs));
  if (killAfterAnswers !== undefined) void afterAnswered(killAfterAnswers).then(killRunners);
  if (sandboxKillAfterMs !== undefined)
    timers.push(setTimeout(() => killSandbox(`at ${(sandboxKillAfterMs / 1000).toFixed(1)} s`), sandboxKillAfterMs));
  if (sandboxKillAfterAnswers !== undefined)
    void afterAnswered(sandboxKillAfterAnswers).then(() =>
      killSandbox(`after ${sandboxKillAfterAnswers} answered requests`),
    );
  return Promise.all(children.map(({ result }) => result.closed)).then((allEnds) => {
    ended = true;
    answeredWaiters = [];
    timers.forEach(clearTimeout);
    // A twin refused by the lock is the expected outcome, not the run's: counted apart.
    const refusedByLock = (e, i) => e.code === 2 && children[i].result.stderr.includes('SR_STATE_LOCKED');
    const lockRefused = allEnds.filter(refusedByLock).length;
    const ends = twins ? allEnds.filter((e, i) => !refusedByLock(e, i)) : allEnds;
    // The worst end wins: a signal, then the highest exit code.
    const killed = ends.find((e) => e.code === null);
    const code = killed ? null : Math.max(...ends.map((e) => e.code));
    return {
      code,
      lockRefused,
      signal: killed?.signal ?? null,
      seconds: (performance.now() - started) / 1000,
      stdout: children.map(({ result }) => result.stdout).join(''),
      stderr: children.map(({ result }) => result.stderr).join(''),
    };
  });
}

/** `signrun report merge` of the shards' reports into out/merged; exit code. */
function mergeReports() {
  const child = track(
    spawn(process.execPath, [bin, 'report', 'merge', ...outDirs, '--out', join(outDir, 'merged')], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  child.stdout.resume();
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

await startServe();
const runs = [];
let lockRefusals = 0;
try {
  for (let i = 0; i < runnerKills + sandboxKills + maxRuns; i++) {
    const killing = i < runnerKills;
    const killingSandbox = !killing && i < runnerKills + sandboxKills;
    const options = {};
    const draw = () =>
      killWindowRequests === undefined
        ? Math.round(500 + random() * killWindowMs)
        : 1 + Math.floor(random() * killWindowRequests);
    const moment = killWindowRequests === undefined ? 'AfterMs' : 'AfterAnswers';
    if (killing) options[`kill${moment}`] = draw();
    if (killingSandbox) options[`sandboxKill${moment}`] = draw();
    const r = await runOnce(options);
    writeFileSync(join(work, `run-${i + 1}.log`), `${r.stdout}\n--- stderr ---\n${r.stderr}`);
    lockRefusals += r.lockRefused;
    runs.push({
      exit: r.code ?? r.signal,
      seconds: Math.round(r.seconds * 10) / 10,
      ...(killing ? { killedAt: options.killAfterMs ?? options.killAfterAnswers } : {}),
    });
    say(
      `run ${i + 1}: ${r.code ?? r.signal} in ${r.seconds.toFixed(1)} s${killing ? ` (runner SIGKILL ${options.killAfterMs !== undefined ? `at ${(options.killAfterMs / 1000).toFixed(1)} s` : `after ${options.killAfterAnswers} answered requests`})` : ''}`,
    );
    if (r.code === 2) {
      process.stderr.write(r.stdout + r.stderr);
      break;
    }
    if (r.code === 0 && i >= runnerKills + sandboxKills) break;
  }
} finally {
  await collectFaults();
  await stopServe('SIGTERM');
}
const mergeExit = shards > 1 ? await mergeReports() : undefined;

// Exactly once and nothing lost, read from the sandbox's database.
const db = new Database(join(dataDir, 'sandbox.sqlite'), { readonly: true });
const rows = db
  .prepare(
    // Drafts deleted after losing a race (status deleted) were never sent: they do not count.
    "SELECT f.value AS value, COUNT(*) AS n FROM envelope_custom_fields f JOIN envelopes e ON e.id = f.envelope_id WHERE f.name = 'signrun' AND f.value LIKE ? AND e.status != 'deleted' GROUP BY f.value",
  )
  .all(`${job}/%`);
const envelopeExists = db.prepare('SELECT 1 FROM envelopes WHERE id = ?');
const perIdentity = new Map(rows.map((r) => [r.value, r.n]));
const expected = Array.from({ length: envelopes }, (_, i) => `${job}/contract-${String(i).padStart(5, '0')}`);
const missing = expected.filter((id) => !perIdentity.has(id));
const duplicated = [...perIdentity].filter(([, n]) => n > 1);
const totalCreated = [...perIdentity.values()].reduce((a, b) => a + b, 0);

// Files (each shard's report, paths relative to its own --out) and the one report to account for every envelope.
let reportEnvelopes = [];
let badFiles = 0;
let files = 0;
let lostEnvelopeIds = 0;
for (const out of outDirs) {
  const reportPath = join(out, 'report.json');
  if (!existsSync(reportPath)) continue;
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  for (const e of report.envelopes ?? []) {
    if (e.envelopeId && !envelopeExists.get(e.envelopeId)) lostEnvelopeIds += 1;
    for (const f of e.files ?? []) {
      files += 1;
      const path = join(out, f.path);
      const ok = existsSync(path) && createHash('sha256').update(readFileSync(path)).digest('hex') === f.sha256;
      if (!ok) badFiles += 1;
    }
  }
}
const finalReport = shards > 1 ? join(outDir, 'merged', 'report.json') : join(outDirs[0], 'report.json');
if (existsSync(finalReport)) reportEnvelopes = JSON.parse(readFileSync(finalReport, 'utf8')).envelopes ?? [];
// Racing runs: each one's report must account for every envelope on its own.
let raceShortfall = 0;
if (race > 1)
  for (const out of outDirs.slice(1)) {
    const path = join(out, 'report.json');
    const own = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')).envelopes ?? [] : [];
    raceShortfall += envelopes - own.filter((e) => e.outcome === 'succeeded').length;
  }
// Issue 25: every output the journal promises, file by file, against the journal and the service.
const viewToken = db.prepare('SELECT envelope_id AS envelopeId FROM view_tokens WHERE token_hash = ?');
const identityEnvelopes = db.prepare(
  "SELECT e.id AS id FROM envelope_custom_fields f JOIN envelopes e ON e.id = f.envelope_id WHERE f.name = 'signrun' AND f.value = ? AND e.status != 'deleted'",
);
let promisesChecked = 0;
let promisesBroken = 0;
const brokenExamples = [];
const withSigning = new Set();
const broken = (what) => {
  promisesBroken += 1;
  if (brokenExamples.length < 5) brokenExamples.push(what);
};
for (const out of outDirs) {
  const journalPath = join(out, '.signrun', 'journal.jsonl');
  if (!existsSync(journalPath)) continue;
  const byId = new Map();
  for (const line of readFileSync(journalPath, 'utf8').split('\n')) {
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      continue; // a torn last line: never acknowledged
    }
    if (r.kind !== 'envelope') continue;
    const p = byId.get(r.id) ?? { views: new Set(), documents: new Map() };
    byId.set(r.id, p);
    if (r.step === 'created') p.envelopeId = r.envelopeId.toLowerCase();
    else if (r.step === 'view') p.views.add(r.recipientId);
    else if (r.step === 'document') p.documents.set(r.documentId, r);
    else if (r.step === 'certificate') p.certificate = r;
  }
  for (const [id, p] of byId) {
    const onService = identityEnvelopes.all(id).map((e) => e.id.toLowerCase());
    if (p.envelopeId && !onService.includes(p.envelopeId)) broken(`${id}: journalled envelope not on the service`);
    // An envelope adopted from the service's listing by a run that journalled no `created`: the service's.
    p.envelopeId ??= onService.length === 1 ? onService[0] : undefined;
    const signingPath = join(out, id, 'signing.json');
    const signing = existsSync(signingPath) ? JSON.parse(readFileSync(signingPath, 'utf8')) : undefined;
    if (signing && signing.envelopeId.toLowerCase() === p.envelopeId) {
      const ready = signing.recipients.filter((r) => r.state === 'ready' && r.url);
      const issued = ready.filter((r) => {
        const token = new URL(r.url).pathname.split('/').pop();
        const row = viewToken.get(createHash('sha256').update(token).digest('hex'));
        return row && row.envelopeId.toLowerCase() === p.envelopeId;
      });
      if (ready.length > 0 && issued.length === ready.length) withSigning.add(id);
    }
    if (p.views.size > 0) {
      promisesChecked += 1;
      if (!withSigning.has(id)) broken(`${id}: views journalled, signing.json ${signing ? 'without them' : 'missing'}`);
    }
    for (const f of [...p.documents.values(), ...(p.certificate ? [p.certificate] : [])]) {
      promisesChecked += 1;
      const path = join(out, f.path);
      if (!existsSync(path) || createHash('sha256').update(readFileSync(path)).digest('hex') !== f.sha256)
        broken(`${f.path}: journalled, ${existsSync(path) ? 'other bytes' : 'missing'}`);
    }
  }
}
const signingFiles = expected.filter((id) => withSigning.has(id)).length;
db.close();
const accounted = new Set(reportEnvelopes.map((e) => `${e.job}/${e.key}`));
const unaccounted = expected.filter((id) => !accounted.has(id)).length;
const succeeded = reportEnvelopes.filter((e) => e.outcome === 'succeeded').length;

const result = {
  envelopes,
  faults,
  seed,
  concurrency,
  runnerKills,
  sandboxKills,
  ...(killWindowRequests !== undefined ? { killAfterRequests: killWindowRequests } : {}),
  sandboxKilled,
  shards,
  ...(twins ? { twins, lockRefusals } : {}),
  ...(race > 1 ? { race, raceShortfall } : {}),
  ...(burstLimit ? { burstLimit: Number(burstLimit) } : {}),
  ...(hourlyLimit ? { hourlyLimit: Number(hourlyLimit) } : {}),
  ...(mergeExit !== undefined ? { mergeExit } : {}),
  runs,
  injected,
  apiRequests,
  createdInSandbox: totalCreated,
  distinctIdentities: perIdentity.size,
  duplicatedIdentities: duplicated.length,
  extraEnvelopes: totalCreated - perIdentity.size,
  missingIdentities: missing.length,
  reportSucceeded: succeeded,
  reportUnaccounted: unaccounted,
  reportedEnvelopeIdsMissingInSandbox: lostEnvelopeIds,
  files,
  filesWithWrongSha256: badFiles,
  promisesChecked,
  promisesBroken,
  ...(brokenExamples.length > 0 ? { brokenExamples } : {}),
  signingFiles,
  machine: `${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, Node ${process.versions.node}`,
};
console.log(asJson ? JSON.stringify(result) : JSON.stringify(result, null, 2));
if (!keep) rmSync(work, { recursive: true, force: true });
else console.error(`kept ${work}`);
const exactlyOnce = duplicated.length === 0 && missing.length === 0;
const complete =
  succeeded === envelopes &&
  unaccounted === 0 &&
  badFiles === 0 &&
  lostEnvelopeIds === 0 &&
  promisesBroken === 0 &&
  signingFiles === envelopes &&
  (mergeExit ?? 0) === 0 &&
  raceShortfall === 0;
process.exit(exactlyOnce && complete ? 0 : 1);
