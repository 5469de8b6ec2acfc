import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import { docxOfBody, paragraphOfRuns, tableOf } from '../helpers/docx-of-body.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 39, the job side: a DOCX with DocuSign's merge fields and the values
// of its docGenFormFields, checked offline at the YAML line or the CSV cell.

const work = join(repoRoot, `test/.tmp/docgen-fields-${process.pid}`);

// Word split "{{Salary}}" across three runs: the field must still be found.
const letter = docxOfBody(
  paragraphOfRuns('Dear {{Candidate_Name}},') +
    paragraphOfRuns('Your salary is {{Sal', 'ar', 'y}} from {{Start_Date}}.') +
    tableOf([
      [paragraphOfRuns('Item'), paragraphOfRuns('Details')],
      [paragraphOfRuns('{{t:"TableRow", e:"Package"}}{{Item}}'), paragraphOfRuns('{{Details}}')],
    ]) +
    paragraphOfRuns('Employee signature'),
);

const csv =
  'name,email,salary,start\nAda Lovelace,ada@example.com,"62,000",2026-12-01\nAlan Turing,alan@example.com,58000,2027-01-15\n';

function job(fields: string, file = 'offer.docx'): string {
  return `version: 1
job: offers
defaults: { emailSubject: Your offer }
envelopes:
  - key: offer-\${row.email}
    forEach: { csv: people.csv }
    documents:
      - file: ${file}
        docGenFormFields:
${fields}
    recipients:
      - name: \${row.name}
        email: \${row.email}
        tabs:
          signHereTabs: [{ anchorString: Employee signature, anchorYOffset: -30 }]
`;
}

const goodFields = `          Candidate_Name: \${row.name}
          Salary: { value: "\${row.salary}", type: Number, format: { expression: "#,##0" } }
          Start_Date: { value: "\${row.start}", type: Date, format: { expression: "MMMM d, yyyy" } }
          Package:
            rowValues:
              - { Item: Salary, Details: "\${row.salary}" }
              - { Item: Bonus, Details: up to 10% }`;

function load(name: string, files: Record<string, string | Buffer>): Promise<LoadResult> {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries({ 'offer.docx': letter, 'people.csv': csv, ...files }))
    writeFileSync(join(dir, path), content);
  return loadJobs([dir], { cwd: dir, env: {} });
}

function jobs(result: LoadResult): ResolvedJob[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.jobs;
}

function errors(result: LoadResult): Array<Pick<Diagnostic, 'code' | 'file' | 'line' | 'column'>> {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map(({ code, file, line, column }) => ({ code, file, line, column }));
}

beforeAll(() => mkdirSync(work, { recursive: true }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('docGenFormFields in job files', () => {
  it('resolves every row with the values of its cells, as DocuSign takes them', async () => {
    const [resolved] = jobs(await load('good', { 'job.yaml': job(goodFields) }));
    const [first, second] = resolved!.envelopes;
    expect(first!.documents[0]!.docGenFormFields!.map(({ written: _, ...f }) => f)).toEqual([
      { name: 'Candidate_Name', value: 'Ada Lovelace' },
      { name: 'Salary', value: '62,000', type: 'Number', format: { expression: '#,##0' } },
      { name: 'Start_Date', value: '2026-12-01', type: 'Date', format: { expression: 'MMMM d, yyyy' } },
      {
        name: 'Package',
        type: 'TableRow',
        rowValues: [
          { Item: 'Salary', Details: '62,000' },
          { Item: 'Bonus', Details: 'up to 10%' },
        ],
      },
    ]);
    // The values are content: two rows with different values have different digests, and so would a changed salary.
    expect(second!.documents[0]!.docGenFormFields![0]!.value).toBe('Alan Turing');
    expect(first!.digest).not.toBe(second!.digest);
  });

  it('refuses an empty cell at the cell, a field the letter lacks at its line, a field left out at docGenFormFields', async () => {
    const emptySalary = csv.replace('Alan Turing,alan@example.com,58000', 'Alan Turing,alan@example.com,');
    expect(errors(await load('empty-cell', { 'job.yaml': job(goodFields), 'people.csv': emptySalary }))).toContainEqual(
      {
        code: 'SR_DOCGEN_FIELD_MISSING',
        file: 'people.csv',
        line: 3,
        column: 30,
      },
    );
    const unknown = goodFields + '\n          Bonus_Percent: "10"';
    expect(errors(await load('unknown', { 'job.yaml': job(unknown) }))).toEqual([
      { code: 'SR_DOCGEN_FIELD_UNKNOWN', file: 'job.yaml', line: 17, column: 26 },
    ]);
    const leftOut = goodFields.replace(/ {10}Candidate_Name: .*\n/, '');
    expect(errors(await load('left-out', { 'job.yaml': job(leftOut) }))).toEqual([
      { code: 'SR_DOCGEN_FIELD_MISSING', file: 'job.yaml', line: 10, column: 11 },
    ]);
  });

  it('refuses a value its type cannot hold (SR_TAB_VALUE_INVALID) and a table column the row lacks', async () => {
    const notNumber = csv.replace('58000', 'a lot');
    const result = errors(await load('not-number', { 'job.yaml': job(goodFields), 'people.csv': notNumber }));
    expect(result).toContainEqual({ code: 'SR_TAB_VALUE_INVALID', file: 'people.csv', line: 3, column: 30 });
    const badColumn = goodFields.replace('{ Item: Bonus, Details: up to 10% }', '{ Item: Bonus, Detail: up to 10% }');
    expect(errors(await load('bad-column', { 'job.yaml': job(badColumn) })).map((e) => [e.code, e.line])).toEqual([
      ['SR_DOCGEN_FIELD_MISSING', 16],
      ['SR_DOCGEN_FIELD_UNKNOWN', 16],
    ]);
  });

  it('refuses docGenFormFields on a document that is not a DOCX', async () => {
    const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));
    const result = await load('pdf', { 'job.yaml': job('          Candidate_Name: x', 'offer.pdf'), 'offer.pdf': pdf });
    expect(errors(result).map((e) => e.code)).toContain('SR_DOCGEN_FIELD_UNKNOWN');
  });

  it('looks for anchors in the letter generated from each row, not in the template', async () => {
    const template = docxOfBody(paragraphOfRuns('Dear {{Candidate_Name}},') + paragraphOfRuns('{{Signature_Label}}'));
    const fields = `          Candidate_Name: \${row.name}
          Signature_Label: Signature of \${row.name}`;
    const anchored = (anchor: string) =>
      job(fields).replace('anchorString: Employee signature, anchorYOffset: -30', `anchorString: "${anchor}"`);
    const found = await load('anchor-generated', {
      'job.yaml': anchored('Signature of Alan Turing'),
      'offer.docx': template,
    });
    // Row 1 (Ada) has no such text: only Alan's letter holds it.
    expect(errors(found)).toEqual([{ code: 'SR_ANCHOR_NOT_FOUND', file: 'job.yaml', line: 16, column: 42 }]);
    const tag = await load('anchor-tag', { 'job.yaml': anchored('{{Signature_Label}}'), 'offer.docx': template });
    expect(new Set(errors(tag).map((e) => e.code))).toEqual(new Set(['SR_ANCHOR_NOT_FOUND']));
    const both = await load('anchor-both', { 'job.yaml': anchored('Signature of'), 'offer.docx': template });
    expect(jobs(both)[0]!.envelopes).toHaveLength(2);
  });
});
