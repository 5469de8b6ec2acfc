/**
 * Chaos benchmark (issue 6, "done when"): `signrun run` on an N-envelope job
 * (default 500, from the sandbox's stored template, two embedded signers)
 * against `signrun serve --faults SPEC` (default all=0.1: 10% of API calls
 * fail, spread evenly over 429, 500, 503, reset before / after processing,
 * slow and truncated downloads), re-run until it exits 0 (a re-run is how a
 * user recovers) or --max-runs is reached. Then it counts, in the sandbox's
 * own database, the envelopes per identity custom field (`signrun`):
 * exactly once means every identity exactly 1; it checks each downloaded
 * file's sha256 against report.json, and that the report accounts for every
 * envelope.
 *
 *   npm run build && node bench/chaos/chaos.mjs [--envelopes 500] [--faults all=0.1] [--seed 1] [--max-runs 5] [--concurrency 8] [--json]
 *
 * Plain JavaScript on the built dist/ (the build compiles src/ only). Exits
 * 1 when exactly-once or completeness does not hold, so it can gate a change.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const envelopes = Number(arg('envelopes', '500'));
const faults = arg('faults', 'all=0.1');
const seed = Number(arg('seed', '1'));
const maxRuns = Number(arg('max-runs', '5'));
const concurrency = Number(arg('concurrency', '8'));
const asJson = process.argv.includes('--json');
const keep = process.argv.includes('--keep');
const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
const job = `chaos-${envelopes}`;

const work = mkdtempSync(join(tmpdir(), 'signrun-chaos-'));
const dataDir = join(work, 'data');
const outDir = join(work, 'out');
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

function startServe() {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--data', dataDir, '--faults', faults, '--fault-seed', String(seed)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      if (out === null) return; // request log lines: drained, not kept
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

function runOnce(rootUrl) {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DOCUSIGN_'))),
    NO_COLOR: '1',
    DOCUSIGN_ROOT_URL: rootUrl,
    DOCUSIGN_USERNAME: 'sandbox@signrun.test',
    DOCUSIGN_PASSWORD: 'sandbox-password',
    DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key',
  };
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [bin, 'run', 'jobs/chaos.yaml', '--out', outDir, '--concurrency', String(concurrency)],
    {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, seconds: (performance.now() - started) / 1000, stdout, stderr })),
  );
}

const { child: serve, rootUrl } = await startServe();
const runs = [];
try {
  for (let i = 0; i < maxRuns; i++) {
    const r = await runOnce(rootUrl);
    runs.push({ exit: r.code, seconds: Math.round(r.seconds * 10) / 10 });
    if (!asJson) process.stderr.write(`run ${i + 1}: exit ${r.code} in ${r.seconds.toFixed(1)} s\n`);
    if (r.code === 0) break;
    if (r.code === 2) {
      process.stderr.write(r.stdout + r.stderr);
      break;
    }
  }
} finally {
  const faultReport = await fetch(new URL('/sandbox/faults', rootUrl))
    .then((r) => r.json())
    .catch(() => undefined);
  serve.kill('SIGTERM');
  await new Promise((resolve) => serve.on('close', resolve));
  globalThis.faultReport = faultReport;
}

// Exactly once, counted in the sandbox's database.
const db = new Database(join(dataDir, 'sandbox.sqlite'), { readonly: true });
const rows = db
  .prepare(
    "SELECT value, COUNT(*) AS n FROM envelope_custom_fields WHERE name = 'signrun' AND value LIKE ? GROUP BY value",
  )
  .all(`${job}/%`);
db.close();
const perIdentity = new Map(rows.map((r) => [r.value, r.n]));
const expected = Array.from({ length: envelopes }, (_, i) => `${job}/contract-${String(i).padStart(5, '0')}`);
const missing = expected.filter((id) => !perIdentity.has(id));
const duplicated = [...perIdentity].filter(([, n]) => n > 1);
const totalCreated = [...perIdentity.values()].reduce((a, b) => a + b, 0);

// Files and report.
let reportEnvelopes = [];
let badFiles = 0;
let files = 0;
const reportPath = join(outDir, 'report.json');
if (existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  reportEnvelopes = report.envelopes ?? [];
  for (const e of reportEnvelopes) {
    for (const f of e.files ?? []) {
      files += 1;
      const path = join(outDir, f.path);
      const ok = existsSync(path) && createHash('sha256').update(readFileSync(path)).digest('hex') === f.sha256;
      if (!ok) badFiles += 1;
    }
  }
}
const accounted = new Set(reportEnvelopes.map((e) => `${e.job}/${e.key}`));
const unaccounted = expected.filter((id) => !accounted.has(id)).length;
const succeeded = reportEnvelopes.filter((e) => e.outcome === 'succeeded').length;

const result = {
  envelopes,
  faults,
  seed,
  concurrency,
  runs,
  injected: globalThis.faultReport?.injected,
  apiRequests: globalThis.faultReport?.apiRequests,
  createdInSandbox: totalCreated,
  distinctIdentities: perIdentity.size,
  duplicatedIdentities: duplicated.length,
  extraEnvelopes: totalCreated - perIdentity.size,
  missingIdentities: missing.length,
  reportSucceeded: succeeded,
  reportUnaccounted: unaccounted,
  files,
  filesWithWrongSha256: badFiles,
  machine: `${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, Node ${process.versions.node}`,
};
console.log(asJson ? JSON.stringify(result) : JSON.stringify(result, null, 2));
if (!keep) rmSync(work, { recursive: true, force: true });
else console.error(`kept ${work}`);
const exactlyOnce = duplicated.length === 0 && missing.length === 0;
const complete = succeeded === envelopes && unaccounted === 0 && badFiles === 0;
process.exit(exactlyOnce && complete ? 0 : 1);
