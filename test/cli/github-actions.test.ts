import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob } from './run-helpers.js';

// Issue 26, "CI on every exit": on GitHub Actions, a run with an invalid row
// marks the row's line (`::error` on stdout) and says so in the step
// summary, and a run that went through appends its report.md there — without
// the user writing `cat out/report.md >> $GITHUB_STEP_SUMMARY`.

describe('signrun on GitHub Actions', () => {
  it('an invalid CSV row: an annotation at its cell and a step summary saying nothing was sent', async () => {
    const dir = await fanOutJob(3, 'ci-invalid');
    const csv = path.join(dir, 'data/people.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('employee2@example.com', 'not-an-email'));
    const summary = path.join(dir, 'summary.md');
    await writeFile(summary, '');
    const result = await runCli(['run', '.'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^::error file=data\/people\.csv,line=3,col=\d+,title=SR_EMAIL_INVALID::/m);
    const written = await readFile(summary, 'utf8');
    expect(written).toContain('# signrun run: invalid input, nothing sent');
    expect(written).toMatch(/\| `data\/people\.csv:3:\d+` \| `SR_EMAIL_INVALID` \|/);
  });

  it('off GitHub Actions: no workflow commands on stdout, no summary', async () => {
    const dir = await fanOutJob(2, 'ci-local');
    const csv = path.join(dir, 'data/people.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('employee2@example.com', 'not-an-email'));
    // Set empty, so that the test means the same when the suite itself runs on GitHub Actions.
    const result = await runCli(['run', '.'], { cwd: dir, env: { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' } });
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain('::error');
  });

  it('a run that went through appends its report.md to the step summary', async () => {
    const dir = await fanOutJob(2, 'ci-valid');
    const summary = path.join(dir, 'summary.md');
    await writeFile(summary, '# earlier step\n');
    const result = await runCli(['run', '.', '--out', 'out'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code, result.stderr).toBe(0);
    const report = await readFile(path.join(dir, 'out/report.md'), 'utf8');
    expect(await readFile(summary, 'utf8')).toBe(`# earlier step\n${report}`);
  });

  it('CI=true GITHUB_ACTIONS=true, one bad row: junit.xml, report.md and ::error at the CSV cell, nothing else written, exit 2', async () => {
    const dir = await fanOutJob(3, 'ci-every-exit');
    const csv = path.join(dir, 'data/people.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('employee2@example.com', 'not-an-email'));
    const summary = path.join(dir, 'summary.md');
    await writeFile(summary, '');
    const result = await runCli(['run', '.', '--out', 'out'], {
      cwd: dir,
      env: { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code).toBe(2);
    const cellAt = /data\/people\.csv:3:(\d+)/.exec(result.stderr);
    expect(cellAt, result.stderr).not.toBeNull();
    const col = cellAt![1];
    expect(result.stdout).toMatch(
      new RegExp(`^::error file=data/people\\.csv,line=3,col=${col},title=SR_EMAIL_INVALID::`, 'm'),
    );
    // Only the two reports: no envelope folder, no state, no spool.
    expect((await readdir(path.join(dir, 'out'))).sort()).toEqual(['junit.xml', 'report.md']);
    const md = await readFile(path.join(dir, 'out/report.md'), 'utf8');
    expect(md).toContain('# signrun run: invalid input, nothing sent');
    expect(md).toContain(`| \`data/people.csv:3:${col}\` | \`SR_EMAIL_INVALID\` |`);
    const junit = await readFile(path.join(dir, 'out/junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*tests="1" failures="1"/);
    expect(junit).toContain(
      `name="data/people.csv:3:${col} SR_EMAIL_INVALID" time="0.000" file="data/people.csv" line="3"`,
    );
    expect(junit).toContain('<failure type="SR_EMAIL_INVALID"');
    // The step summary is the report.md the run left.
    expect(await readFile(summary, 'utf8')).toBe(md);
  });

  it('sync with a bad row writes the same reports in its --out; plan and validate annotate and summarise', async () => {
    const dir = await fanOutJob(2, 'ci-sync-invalid');
    const csv = path.join(dir, 'data/people.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('employee2@example.com', 'not-an-email'));
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md') };
    const synced = await runCli(['sync', '.', '--out', 'synced'], { cwd: dir, env });
    expect(synced.code).toBe(2);
    expect(synced.stdout).toMatch(/^::error file=data\/people\.csv,line=3,/m);
    expect((await readdir(path.join(dir, 'synced'))).sort()).toEqual(['junit.xml', 'report.md']);
    expect(await readFile(path.join(dir, 'synced/report.md'), 'utf8')).toContain(
      '# signrun sync: invalid input, nothing sent',
    );
    const planned = await runCli(['plan', '.'], { cwd: dir, env });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toMatch(/^::error file=data\/people\.csv,line=3,/m);
    const validated = await runCli(['validate', '.'], { cwd: dir, env });
    expect(validated.code).toBe(2);
    expect(validated.stdout).toMatch(/^::error file=data\/people\.csv,line=3,/m);
    const written = await readFile(env.GITHUB_STEP_SUMMARY, 'utf8');
    expect(written).toContain('# signrun sync: invalid input, nothing sent');
    expect(written).toContain('# signrun plan: invalid input, nothing sent');
    expect(written).toContain('# signrun validate: invalid input, nothing sent');
    // plan and validate write no files of their own.
    expect((await readdir(dir)).sort()).toEqual(['data', 'docs', 'fan-out.yaml', 'summary.md', 'synced']);
  });

  it("a valid plan on GitHub Actions: the plan's text in the step summary", async () => {
    const dir = await fanOutJob(2, 'ci-plan');
    const summary = path.join(dir, 'summary.md');
    const result = await runCli(['plan', '.'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code, result.stderr).toBe(0);
    const written = await readFile(summary, 'utf8');
    expect(written).toMatch(/^# signrun plan\n\n```text\n/);
    expect(written).toContain(result.stdout.trim());
  });

  it('an error with no place in a job file (credentials missing): an ::error with its code, and the reports in the summary', async () => {
    const dir = await fanOutJob(1, 'ci-credentials');
    const summary = path.join(dir, 'summary.md');
    const result = await runCli(['run', '.', '--out', 'out'], {
      cwd: dir,
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
        DOCUSIGN_ROOT_URL: 'https://demo.docusign.net/restapi/v2.1',
      },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^::error title=SR_CREDENTIALS_MISSING::/m);
    const md = await readFile(path.join(dir, 'out/report.md'), 'utf8');
    expect(md).toContain('SR_CREDENTIALS_MISSING');
    expect(await readFile(summary, 'utf8')).toBe(md);
  });
});
