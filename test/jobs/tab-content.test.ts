import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 19, the job side: a recipient's tabs by DocuSign's collections, every
// kind with its fields, placed by position or by anchor, filled from the CSV,
// and checked offline (anchors found, boxes on the page, values their kind
// can hold).

const work = join(repoRoot, `test/.tmp/tab-content-${process.pid}`);
// Two A4 pages; page 2 holds "Signature of the employee:".
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));

function folder(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function jobs(result: LoadResult): ResolvedJob[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.jobs;
}

function errors(result: LoadResult): Array<Pick<Diagnostic, 'code' | 'file' | 'line' | 'column' | 'field'>> {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map(({ code, file, line, column, field }) => ({ code, file, line, column, field }));
}

const header = 'version: 1\njob: j\ndefaults: { emailSubject: Sign }\n';

/** A job of one envelope whose signer has `tabs` (YAML, indented under `tabs:`). */
function oneSigner(tabs: string, extra = ''): string {
  return `${header}envelopes:
  - key: e1
${extra}    documents: [{ file: offer.pdf }]
    recipients:
      - name: Jean
        email: jean@example.com
        tabs:
${tabs}`;
}

beforeAll(() => mkdirSync(work, { recursive: true }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the object form of tabs', () => {
  it('takes every field of a kind, as YAML values or DocuSign strings, and ${row.*} anywhere', async () => {
    const dir = folder('object-form', {
      'offer.pdf': pdf,
      'people.csv': 'id,salary,level\n1,62000,senior\n',
      'job.yaml': `${header}envelopes:
  - key: e-\${row.id}
    forEach: { csv: people.csv }
    documents: [{ file: offer.pdf }]
    recipients:
      - name: Jean
        email: jean@example.com
        tabs:
          signHereTabs:
            - { anchorString: "Signature of the employee:", anchorYOffset: 20, anchorUnits: pixels }
          numberTabs:
            - { tabLabel: salary, value: "\${row.salary}", locked: true, pageNumber: 2, xPosition: 100, yPosition: "100", width: 80 }
          checkboxTabs:
            - { tabLabel: relocation, selected: "true", pageNumber: 1, xPosition: 50, yPosition: 400 }
          listTabs:
            - tabLabel: level
              value: \${row.level}
              pageNumber: 1
              xPosition: 50
              yPosition: 450
              listItems: [{ text: Junior, value: junior }, { text: Senior, value: senior, selected: true }]
          radioGroupTabs:
            - groupName: contract
              radios:
                - { value: permanent, selected: true, pageNumber: 1, xPosition: 50, yPosition: 500 }
                - { value: fixed, anchorString: "Holidays" }
`,
    });
    const [job] = jobs(await loadJobs([dir], { cwd: dir, env: {} }));
    const tabs = job!.envelopes[0]!.recipients[0]!.tabs;
    expect(tabs.map((t) => t.kind)).toEqual(['signHere', 'number', 'checkbox', 'list', 'radioGroup']);
    expect(tabs[0]).toEqual({
      kind: 'signHere',
      place: { anchorString: 'Signature of the employee:', anchorYOffset: '20', anchorUnits: 'pixels' },
      written: ['tabs', 'signHereTabs', 0],
    });
    expect(tabs[1]).toMatchObject({
      value: '62000',
      fields: { tabLabel: 'salary', locked: 'true', width: '80' },
      place: { documentId: '1', pageNumber: '2', xPosition: '100', yPosition: '100' },
    });
    expect(tabs[2]!.fields).toEqual({ tabLabel: 'relocation', selected: 'true' });
    expect(tabs[3]).toMatchObject({
      value: 'senior',
      listItems: [
        { text: 'Junior', value: 'junior' },
        { text: 'Senior', value: 'senior', selected: 'true' },
      ],
    });
    expect(tabs[4]).toMatchObject({
      fields: { groupName: 'contract' },
      radios: [
        {
          place: { documentId: '1', pageNumber: '1', xPosition: '50', yPosition: '500' },
          value: 'permanent',
          fields: { selected: 'true' },
        },
        { place: { anchorString: 'Holidays' }, value: 'fixed' },
      ],
    });
  });

  it('gives template roles tabs that fill the template’s tabs by label', async () => {
    const dir = folder('roles', {
      'job.yaml': `${header}envelopes:
  - key: t1
    templateId: tpl-1
    templateRoles:
      - roleName: employee
        name: Jean
        email: jean@example.com
        tabs:
          textTabs: [{ tabLabel: salary, value: "62000", locked: true }]
`,
    });
    const [job] = jobs(await loadJobs([dir], { cwd: dir, env: {} }));
    expect(job!.envelopes[0]!.templateRoles[0]!.tabs).toEqual([
      {
        kind: 'text',
        value: '62000',
        fields: { tabLabel: 'salary', locked: 'true' },
        written: ['tabs', 'textTabs', 0],
      },
    ]);
  });

  it('refuses an unknown collection, a field the kind lacks, and a tab with no place', async () => {
    const dir = folder('refused', {
      'offer.pdf': pdf,
      'job.yaml': oneSigner(`          textTab: [{ pageNumber: 1, xPosition: 1, yPosition: 1 }]
          signHereTabs: [{ pageNumber: 1, xPosition: 1, yPosition: 1, value: x }]
          dateTabs: [{ tabLabel: start }]
`),
    });
    expect(errors(await loadJobs([dir], { cwd: dir, env: {} })).map((e) => [e.code, e.field])).toEqual([
      ['SR_SCHEMA_UNKNOWN_PROPERTY', 'envelopes[0].recipients[0].tabs.textTab'],
      ['SR_SCHEMA_UNKNOWN_PROPERTY', 'envelopes[0].recipients[0].tabs.signHereTabs[0].value'],
    ]);
    const place = folder('no-place', {
      'offer.pdf': pdf,
      'job.yaml': oneSigner('          dateTabs: [{ tabLabel: start }]\n'),
    });
    expect(errors(await loadJobs([place], { cwd: place, env: {} }))).toEqual([
      {
        code: 'SR_SCHEMA_REQUIRED',
        file: 'job.yaml',
        line: 11,
        column: 22,
        field: 'envelopes[0].recipients[0].tabs.dateTabs[0]',
      },
    ]);
  });
});
