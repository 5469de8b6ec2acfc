import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { readCsvRows } from '../../src/jobs/csv-rows.js';
import { repoRoot } from '../helpers/run-cli.js';

// Validation of forEach patterns and their CSV: a mistake in the pattern is
// reported once at the YAML line; CSV problems in signrun's words.

const work = join(repoRoot, `test/.tmp/row-patterns-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const job = (file: string) => `version: 1
job: offers
defaults: { emailSubject: Sign, returnUrl: https://example.com/done }
envelopes:
  - key: offer-\${row.employeeId}
    forEach: { csv: people.csv }
    documents:
      - name: offer.pdf
        file: ${file}
    recipients:
      - { name: "\${row.name}", email: "\${row.email}", clientUserId: "emp-\${row.employeeId}" }
`;

const people = (sep: string, n: number) =>
  [
    `employeeId${sep}name${sep}email`,
    ...Array.from({ length: n }, (_, i) => `E${i}${sep}Person ${i}${sep}p${i}@example.com`),
  ].join('\n') + '\n';

describe('forEach patterns', () => {
  it('a typo in the pattern every row uses is reported once, at the YAML line, with the number of rows', async () => {
    const files: Record<string, string | Buffer> = {
      'job.yaml': job('letter/offer-${row.employeeId}.pdf'),
      'people.csv': people(',', 30),
    };
    for (let i = 0; i < 30; i++) files[`letters/offer-E${i}.pdf`] = pdf;
    const dir = folder('typo', files);
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const missing = result.errors.filter((e) => e.code === 'SR_DOC_NOT_FOUND');
    expect(missing, JSON.stringify(result.errors)).toHaveLength(1);
    expect(missing[0]).toMatchObject({ file: 'job.yaml', line: 9 });
    expect(missing[0]?.message).toContain('every one of the 30 rows');
    expect(missing[0]?.message).toContain('letter/offer-E0.pdf');
  });

  it('a mistake of some rows only is still reported at each of their CSV cells', async () => {
    const files: Record<string, string | Buffer> = {
      'job.yaml': job('letters/offer-${row.employeeId}.pdf'),
      'people.csv': people(',', 4),
    };
    for (let i = 0; i < 2; i++) files[`letters/offer-E${i}.pdf`] = pdf;
    const dir = folder('some-rows', files);
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const missing = result.errors.filter((e) => e.code === 'SR_DOC_NOT_FOUND');
    expect(missing.map((e) => [e.file, e.line])).toEqual([
      ['people.csv', 4],
      ['people.csv', 5],
    ]);
  });

  it('a semicolon-separated CSV is read as such (the header line tells the delimiter)', async () => {
    const files: Record<string, string | Buffer> = {
      'job.yaml': job('offer.pdf'),
      'people.csv': people(';', 3),
      'offer.pdf': pdf,
    };
    const dir = folder('semicolons', files);
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok ? [] : result.errors).toEqual([]);
    if (!result.ok) return;
    expect(result.jobs[0]?.envelopes.map((e) => e.key)).toEqual(['offer-E0', 'offer-E1', 'offer-E2']);
  });
});

describe('CSV errors in signrun words, with line and column', () => {
  async function csv(text: string) {
    const dir = folder(`csv-${Math.random().toString(36).slice(2)}`, { 'rows.csv': text });
    return readCsvRows(join(dir, 'rows.csv'), 'rows.csv');
  }

  it('a row with a cell too many names the line, the counts and the column of the extra cell', async () => {
    const result = await csv('id,name,email\n1,Ann,ann@example.com\n2,Smith, Bob,bob@example.com\n');
    expect(result).toMatchObject({ ok: false, code: 'SR_CSV_INVALID', line: 3, column: 14 });
    if (result.ok) return;
    expect(result.message).toBe(
      'rows.csv: line 3 has 4 cells but the header names 3 columns; cell 4 starts at column 14 (a "," inside a value needs the value in double quotes)',
    );
    expect(result.message).not.toContain('Invalid Record Length');
  });

  it('a short row, an unclosed quote and a stray quote are explained', async () => {
    const short = await csv('a;b;c\n1;2\n');
    expect(short).toMatchObject({ ok: false, line: 2 });
    if (!short.ok) expect(short.message).toContain('line 2 has 2 cells but the header names 3 columns');
    const unclosed = await csv('a,b\n1,"two\n');
    if (!unclosed.ok) expect(unclosed.message).toContain('never closed');
    const stray = await csv('a,b\n1,"two"x\n');
    expect(stray).toMatchObject({ ok: false, line: 2, column: 3 });
    if (!stray.ok) expect(stray.message).toContain('two quotes');
  });
});
