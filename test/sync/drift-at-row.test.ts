import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir, validateReport } from '../cli/run-helpers.js';

// Issue 26: an envelope of a forEach campaign that drifted (its CSV cell
// changed after sending) is reported at the row that changed — console,
// report.json, junit.xml and GitHub's annotations — not at the pattern.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => sandbox?.close());

const jobText = [
  'version: 1',
  'job: offers',
  'envelopes:',
  '  - key: offer-${row.id}',
  '    forEach: { csv: people.csv }',
  '    emailSubject: Your offer, ${row.salary}',
  '    documents:',
  '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
  '    recipients:',
  '      - { name: "${row.name}", email: "${row.email}" }',
  '',
].join('\n');

const csv = (secondSalary: string) =>
  [
    'id,name,email,salary',
    'a,Ann Lee,ann@example.com,50000',
    `b,Bob Ray,bob@example.com,${secondSalary}`,
    'c,Cy Oda,cy@example.com,52000',
    '',
  ].join('\n');

describe('a drifted row', () => {
  it('is reported at its CSV line, with the way out', async () => {
    const dir = await tempDir('signrun-drift-row-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(path.join(dir, 'offers.yaml'), jobText);
    await writeFile(path.join(dir, 'people.csv'), csv('51000'));
    const env = { ...sandboxEnv(sandbox), CI: 'true', GITHUB_ACTIONS: 'true' };
    const first = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env });
    expect(first.code, first.stdout + first.stderr).toBe(0);

    // Bob's salary changes after his letter went out (line 3 of the CSV).
    await writeFile(path.join(dir, 'people.csv'), csv('61000'));
    const drift = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/people\.csv:3:1 offers\/offer-b SR_ENVELOPE_DRIFT .*--replace-drifted/);
    expect(drift.stdout).toMatch(/^::error file=people\.csv,line=3,col=1,title=SR_ENVELOPE_DRIFT::offers\/offer-b: /m);
    // The rows that did not change are not marked.
    expect(drift.stdout.match(/^::error /gm)).toHaveLength(1);

    const report = await readReport(path.join(dir, 'out'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    const b = report.envelopes.find((e) => e.key === 'offer-b');
    expect(b).toMatchObject({ outcome: 'failed', row: 2, rowSource: { file: 'people.csv', line: 3, column: 1 } });
    expect(b?.error?.code).toBe('SR_ENVELOPE_DRIFT');
    expect(b?.source.file).toBe('offers.yaml');

    const junit = await readFile(path.join(dir, 'out', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="offers\.envelopes" name="offer-b" [^>]*file="people\.csv" line="3"/);
    expect(junit).toMatch(/<testcase classname="offers\.envelopes" name="offer-c" [^>]*file="people\.csv" line="4"/);
  });

  it("sync's reports point at each row's CSV line too, as run's do", async () => {
    const dir = await tempDir('signrun-sync-row-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(path.join(dir, 'offers.yaml'), jobText);
    await writeFile(path.join(dir, 'people.csv'), csv('51000'));
    const env = sandboxEnv(sandbox);
    expect((await runCli(['run', '.', '--out', 'out'], { cwd: dir, env })).code).toBe(0);
    const synced = await runCli(['sync', '.', '--out', 'out'], { cwd: dir, env });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);

    const report = await readReport(path.join(dir, 'out'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.command).toBe('sync');
    expect(report.envelopes.map((e) => [e.key, e.rowSource?.file, e.rowSource?.line])).toEqual([
      ['offer-a', 'people.csv', 2],
      ['offer-b', 'people.csv', 3],
      ['offer-c', 'people.csv', 4],
    ]);
    const junit = await readFile(path.join(dir, 'out', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="offers\.envelopes" name="offer-b" [^>]*file="people\.csv" line="3"/);
    const html = await readFile(path.join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('<code>people.csv:3</code>');
  });
});
