import { readFile, writeFile } from 'node:fs/promises';
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
});
