// bench/suite/spot-checks.mjs: issue 38's mutation-style spot checks, run
// as a script instead of by hand. Each check breaks one rule in src (an
// exact text replaced, which must occur once), builds, runs the test files
// that guard the rule, and expects them to FAIL; then puts src back. A check
// whose tests still pass is a hole in the suite; one whose edit no longer
// applies (src moved on) or does not build is reported as such, never as a
// pass. Everything happens in a scratch copy of HEAD (git archive, with
// node_modules hard-linked), so the working tree is never touched.
//
// Usage: node bench/suite/spot-checks.mjs [--only <area substring>] [--keep]
// Prints one line a check and a JSON summary; exit 0 when every check's
// tests failed, 1 otherwise. Takes a build and a test run a check (minutes).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The rules the suite must guard (issue 38's list: exactly-once, crash
 * recovery, races, signals, redaction, the signing page). `edits` are
 * applied together; `tests` must fail with them.
 */
const checks = [
  {
    area: 'exactly-once after a kill',
    rule: 'a re-run reads its journal and the service listing, and a confirmed draft is the earliest one',
    edits: [
      {
        file: 'src/runner/decide.ts',
        find: 'const journalled = sources.journal?.envelopes.get(identity);',
        replace: 'const journalled = undefined as EnvelopeProgress | undefined;\n  sources = { ...sources, ledger: undefined };',
      },
      {
        file: 'src/runner/envelopes/envelope-pipeline.ts',
        find: 'const winner = ledger.winnerOf(tag);',
        replace:
          'const winner = state.draftId === undefined ? ledger.winnerOf(tag) : Object.assign({}, ledger.winnerOf(tag), { envelopeId: state.draftId, status: "created" });',
      },
    ],
    tests: ['test/chaos/chaos-runner-kills.test.ts'],
  },
  {
    area: 'races',
    rule: "racing runners' drafts: the earliest wins, the others are deleted",
    edits: [
      {
        file: 'src/runner/envelopes/envelope-pipeline.ts',
        find: 'const winner = ledger.winnerOf(tag);',
        replace:
          'const winner = state.draftId === undefined ? ledger.winnerOf(tag) : Object.assign({}, ledger.winnerOf(tag), { envelopeId: state.draftId, status: "created" });',
      },
    ],
    tests: ['test/cli/run-race.test.ts'],
  },
  {
    area: 'crash recovery',
    rule: "the sandbox commits each answer before it goes out (a SIGKILL loses nothing answered)",
    edits: [
      {
        file: 'src/sandbox/platform/db/open-database.ts',
        find: '  migrate(db);\n  return db;',
        replace: "  migrate(db);\n  if (dataDir !== undefined) db.exec('BEGIN');\n  return db;",
      },
    ],
    tests: ['test/chaos/chaos-sandbox-kill.test.ts'],
  },
  {
    area: 'signals',
    rule: 'an interrupted run exits 130',
    edits: [{ file: 'src/runner/run-summary.ts', find: 'interrupted: ExitCode.interrupted,', replace: 'interrupted: ExitCode.failed,' }],
    tests: ['test/cli/run-interrupt.test.ts'],
  },
  {
    area: 'redaction',
    rule: 'signing.json (signing addresses) is written 0600',
    edits: [{ file: 'src/runner/envelopes/envelope-pipeline.ts', find: '{ mode: 0o600 },', replace: '{ mode: 0o644 },' }],
    tests: ['test/cli/run.test.ts'],
  },
  {
    area: 'redaction',
    rule: 'signing addresses are taken out of errors and logs',
    edits: [
      {
        file: 'src/client/redact.ts',
        find: "out = out.replace(/(\\/signing\\/)[^\\s\"'?#]+/gi, '$1[redacted]');",
        replace: '',
      },
    ],
    tests: ['test/client', 'test/cli/sign-url.test.ts'],
  },
  {
    area: 'exactly-once through a token renewal',
    rule: 'a 401 for a token already replaced asks for no new token',
    edits: [
      {
        file: 'src/client/oauth/token-provider.ts',
        find: 'if (this.#current && this.#current.token !== rejected) return this.token();',
        replace: '',
      },
    ],
    tests: ['test/client/oauth-token-provider.test.ts'],
  },
  {
    area: 'the signing page',
    rule: 'a decline returns the signer with event=decline',
    edits: [
      {
        file: 'src/sandbox/signing/action-routes.ts',
        find: "return context.finish(reply, session, 'decline');",
        replace: "return context.finish(reply, session, 'cancel');",
      },
    ],
    tests: ['test/browser/signing-page.test.ts'],
  },
];

const only = argValue('--only');
const keep = process.argv.includes('--keep');
const chosen = checks.filter((c) => only === undefined || c.area.includes(only));

const scratch = mkdtempSync(join(tmpdir(), 'signrun-spot-checks-'));
execFileSync('sh', ['-c', `git -C "${root}" archive HEAD | tar -x -C "${scratch}"`]);
// Hard links: nothing here writes into node_modules but vitest's cache, which goes (rewriting a linked file would change the original).
execFileSync('cp', ['-al', join(root, 'node_modules'), join(scratch, 'node_modules')]);
rmSync(join(scratch, 'node_modules/.vite'), { recursive: true, force: true });
const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(`spot checks at ${head} in ${scratch}: ${chosen.length} checks`);

const results = [];
for (const check of chosen) {
  const originals = new Map();
  let outcome;
  try {
    for (const edit of check.edits) {
      const file = join(scratch, edit.file);
      const text = originals.get(edit.file) ?? readFileSync(file, 'utf8');
      if (!originals.has(edit.file)) originals.set(edit.file, text);
      const current = readFileSync(file, 'utf8');
      const count = current.split(edit.find).length - 1;
      if (count !== 1) throw new Error(`${edit.file}: the text to break occurs ${count} times (src moved on: update the check)`);
      writeFileSync(file, current.replace(edit.find, () => edit.replace));
    }
    const build = spawnSync('npm', ['run', 'build'], { cwd: scratch, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`the broken src does not build:\n${build.stdout}${build.stderr}`.slice(0, 2000));
    const started = Date.now();
    const run = spawnSync('npx', ['vitest', 'run', ...check.tests], { cwd: scratch, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const failed = (run.stdout + run.stderr).match(/Tests\s+(\d+) failed/)?.[1];
    outcome = {
      // Caught: tests ran and some failed (not a run that could not start).
      verdict: run.status !== 0 && failed !== undefined ? 'caught' : 'MISSED',
      failedTests: failed === undefined ? 0 : Number(failed),
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } catch (error) {
    outcome = { verdict: 'NOT RUN', why: error instanceof Error ? error.message : String(error) };
  } finally {
    for (const [file, text] of originals) writeFileSync(join(scratch, file), text);
  }
  const result = { area: check.area, rule: check.rule, tests: check.tests, ...outcome };
  results.push(result);
  console.log(
    `${outcome.verdict.padEnd(7)} ${check.area}: ${check.rule} — ${check.tests.join(', ')}` +
      (outcome.verdict === 'NOT RUN' ? `\n  ${outcome.why}` : ` (${outcome.failedTests} failed, ${outcome.seconds} s)`),
  );
}
if (!keep) rmSync(scratch, { recursive: true, force: true });
console.log(JSON.stringify({ head, results }, null, 2));
process.exit(results.every((r) => r.verdict === 'caught') ? 0 : 1);

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}
