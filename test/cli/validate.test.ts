import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

afterAll(() => {
  for (const name of ['validate-env', 'validate-github'])
    rmSync(join(repoRoot, `test/.tmp/${name}-${process.pid}`), { recursive: true, force: true });
});

describe('signrun validate', () => {
  it('passes on the examples of a clean clone and prints the summary', async () => {
    const result = await runCli(['validate', 'examples']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('8 files, 8 jobs, 64 envelopes, 1 template, 3 accounts: 0 errors, 0 warnings');
  });

  it('json summary counts envelopes after expansion; a glob works too', async () => {
    const result = await runCli(['validate', 'examples/*-renewals.yaml', '--format', 'json']);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { ok: boolean; summary: Record<string, number> };
    expect(out).toEqual({
      ok: true,
      summary: { files: 1, jobs: 1, envelopes: 20, accounts: 0, errors: 0, warnings: 0 },
      diagnostics: [],
    });
  });

  it('the environment wins over examples/.env, and a missing variable is an error at its line', async () => {
    const dir = join(repoRoot, `test/.tmp/validate-env-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'account.yaml'),
      'version: 1\njob: env-check\naccounts:\n  - key: a\n    accountName: A\n    initialUser: { email: a@example.com, password: "${env.SIGNRUN_TEST_PW}" }\n    planInformation: { planId: "${env.SIGNRUN_TEST_PLAN}" }\n',
    );
    writeFileSync(join(dir, '.env'), 'SIGNRUN_TEST_PLAN=from-dotenv\n');
    const missing = await runCli(['validate', '.', '--format', 'json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect((JSON.parse(missing.stdout) as { diagnostics: unknown[] }).diagnostics).toMatchObject([
      { code: 'SR_ENV_NOT_SET', line: 6, column: 52 },
    ]);
    const set = await runCli(['validate', '.'], { cwd: dir, env: { SIGNRUN_TEST_PW: 'x' } });
    expect(set.code).toBe(0);
  });

  it('prints github annotations and exits 2 for a broken file; text has no colour with NO_COLOR', async () => {
    const dir = join(repoRoot, `test/.tmp/validate-github-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\njob: bad\nenvelopes:\n  - key: a\n    statuss: sent\n');
    const github = await runCli(['validate', 'bad.yaml', '--format', 'github'], { cwd: dir });
    expect(github.code).toBe(2);
    expect(github.stdout).toMatch(/^::error file=bad\.yaml,line=5,col=5,title=SR_SCHEMA_UNKNOWN_PROPERTY::/m);
    const text = await runCli(['validate', 'bad.yaml'], { cwd: dir, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('bad.yaml:5:5 SR_SCHEMA_UNKNOWN_PROPERTY');
    expect(text.stdout).toContain('did you mean "status"?');
    expect(text.stdout).not.toContain('\u001b[');
  });

  it('exits 2 with SR_NO_JOB_FILES when nothing matches', async () => {
    const result = await runCli(['validate', 'no/such/*.yaml', '--format', 'json']);
    expect(result.code).toBe(2);
    expect(
      (JSON.parse(result.stdout) as { diagnostics: Array<{ code: string }> }).diagnostics.map((d) => d.code),
    ).toEqual(['SR_NO_JOB_FILES']);
  });
});
