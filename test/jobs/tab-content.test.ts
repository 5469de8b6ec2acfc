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

describe('validate checks tabs offline', () => {
  const load = async (name: string, files: Record<string, string | Buffer>) => {
    const dir = folder(name, { 'offer.pdf': pdf, ...files });
    return loadJobs([dir], { cwd: dir, env: {} });
  };

  it('finds an anchor in the documents, and refuses one that no document holds unless told to ignore it', async () => {
    expect(
      (
        await load('anchor-ok', {
          'job.yaml': oneSigner(`          signHereTabs:
            - { anchorString: "signature of the EMPLOYEE", anchorYOffset: 30 }
            - { anchorString: "Signature of the manager:", anchorIgnoreIfNotPresent: "true" }
`),
        })
      ).ok,
    ).toBe(true);
    expect(
      errors(
        await load('anchor-missing', {
          'job.yaml': oneSigner(`          signHereTabs:
            - { anchorString: "Signature of the manager:" }
`),
        }),
      ),
    ).toEqual([
      {
        code: 'SR_ANCHOR_NOT_FOUND',
        file: 'job.yaml',
        line: 12,
        column: 31,
        field: 'envelopes[0].recipients[0].tabs.signHereTabs[0].anchorString',
      },
    ]);
    // Case and whole words as DocuSign matches them.
    expect(
      errors(
        await load('anchor-case', {
          'job.yaml': oneSigner(`          signHereTabs:
            - { anchorString: "signature of the employee", anchorCaseSensitive: true }
            - { anchorString: "Holiday", anchorMatchWholeWord: true }
`),
        }),
      ).map((e) => e.code),
    ).toEqual(['SR_ANCHOR_NOT_FOUND', 'SR_ANCHOR_NOT_FOUND']);
  });

  it('points at the CSV cell when the anchor came from a row, and at the YAML line when every row has it', async () => {
    const result = await load('anchor-row', {
      'people.csv': 'id,anchor\n1,Salary:\n2,Wage:\n',
      'job.yaml': oneSigner(
        `          initialHereTabs:
            - { anchorString: "\${row.anchor}" }
`,
        '    forEach: { csv: people.csv }\n',
      ).replace('key: e1', 'key: e-${row.id}'),
    });
    expect(errors(result)).toEqual([
      {
        code: 'SR_ANCHOR_NOT_FOUND',
        file: 'people.csv',
        line: 3,
        column: 3,
        field: 'envelopes[0].recipients[0].tabs.initialHereTabs[0].anchorString',
      },
    ]);
    const everyRow = await load('anchor-every-row', {
      'people.csv': 'id,anchor\n1,Wage:\n2,Pay:\n',
      'job.yaml': oneSigner(
        `          initialHereTabs:
            - { anchorString: "\${row.anchor}" }
`,
        '    forEach: { csv: people.csv }\n',
      ).replace('key: e1', 'key: e-${row.id}'),
    });
    expect(errors(everyRow).map((e) => [e.code, e.file, e.line])).toEqual([['SR_ANCHOR_NOT_FOUND', 'job.yaml', 13]]);
  });

  it('refuses a tab whose box runs off the page, in either form, and a page that does not exist', async () => {
    // A4 is 595 × 842 points: a signature (180 × 48) at y 800 has its corner on the page, not its box.
    expect(
      errors(
        await load('off-page-list', {
          'job.yaml': oneSigner('          - { pageNumber: 1, xPosition: 100, yPosition: 800 }\n'),
        }),
      ),
    ).toEqual([
      {
        code: 'SR_TAB_OFF_PAGE',
        file: 'job.yaml',
        line: 11,
        column: 57,
        field: 'envelopes[0].recipients[0].tabs[0].yPosition',
      },
    ]);
    const result = await load('off-page-object', {
      'job.yaml': oneSigner(`          textTabs:
            - { pageNumber: 1, xPosition: 500, yPosition: 100, width: 60 }
            - { pageNumber: 1, xPosition: 500, yPosition: 100, width: "120" }
            - { pageNumber: 3, xPosition: 1, yPosition: 1 }
          checkboxTabs:
            - { anchorString: "Page 1 of 2", anchorYOffset: 40 }
`),
    });
    expect(errors(result).map((e) => [e.code, e.field])).toEqual([
      ['SR_TAB_OFF_PAGE', 'envelopes[0].recipients[0].tabs.textTabs[1].xPosition'],
      ['SR_TAB_PAGE_OUT_OF_RANGE', 'envelopes[0].recipients[0].tabs.textTabs[2].pageNumber'],
      ['SR_TAB_OFF_PAGE', 'envelopes[0].recipients[0].tabs.checkboxTabs[0].anchorYOffset'],
    ]);
  });

  it('refuses a value its tab cannot hold, at the CSV cell it came from', async () => {
    const result = await load('values', {
      'people.csv': 'id,salary,start,level\n1,62000,2026-12-01,senior\n2,lots,2026-02-30,boss\n',
      'job.yaml': oneSigner(
        `          numberTabs:
            - { value: "\${row.salary}", pageNumber: 1, xPosition: 10, yPosition: 10 }
          dateTabs:
            - { value: "\${row.start}", pageNumber: 1, xPosition: 10, yPosition: 40 }
          listTabs:
            - value: \${row.level}
              pageNumber: 1
              xPosition: 10
              yPosition: 70
              listItems: [{ text: Junior, value: junior }, { text: Senior, value: senior }]
`,
        '    forEach: { csv: people.csv }\n',
      ).replace('key: e1', 'key: e-${row.id}'),
    });
    expect(errors(result).map((e) => [e.code, e.file, e.line, e.column])).toEqual([
      ['SR_TAB_VALUE_INVALID', 'people.csv', 3, 3],
      ['SR_TAB_VALUE_INVALID', 'people.csv', 3, 8],
      ['SR_TAB_VALUE_INVALID', 'people.csv', 3, 19],
    ]);
  });

  it('refuses values over maxLength, off validationPattern, two radios or list items selected, and non-numbers in number fields', async () => {
    const result = await load('values-literal', {
      'job.yaml': oneSigner(`          textTabs:
            - { value: "ABCDEF", maxLength: 5, pageNumber: 1, xPosition: 10, yPosition: 10 }
            - { value: "12-AB", validationPattern: "\\\\d+", pageNumber: 1, xPosition: 10, yPosition: 40 }
            - { value: "x", validationPattern: "(", pageNumber: 1, xPosition: 10, yPosition: 70 }
            - { value: "x", width: wide, pageNumber: 1, xPosition: 10, yPosition: 100 }
            - { value: "x", pageNumber: one, xPosition: 10, yPosition: 100 }
            - { value: "x", anchorString: Holidays, anchorXOffset: "2cm" }
          listTabs:
            - pageNumber: 1
              xPosition: 10
              yPosition: 130
              listItems: [{ text: A, selected: true }, { text: B, selected: "true" }]
          radioGroupTabs:
            - groupName: g
              radios:
                - { value: a, selected: true, pageNumber: 1, xPosition: 10, yPosition: 160 }
                - { value: b, selected: true, pageNumber: 1, xPosition: 40, yPosition: 160 }
`),
    });
    expect(errors(result).map((e) => [e.code, e.field])).toEqual([
      ['SR_TAB_VALUE_INVALID', 'envelopes[0].recipients[0].tabs.textTabs[0].value'],
      ['SR_TAB_VALUE_INVALID', 'envelopes[0].recipients[0].tabs.textTabs[1].value'],
      ['SR_TAB_VALUE_INVALID', 'envelopes[0].recipients[0].tabs.textTabs[2].validationPattern'],
      ['SR_SCHEMA_VALUE', 'envelopes[0].recipients[0].tabs.textTabs[3].width'],
      ['SR_SCHEMA_VALUE', 'envelopes[0].recipients[0].tabs.textTabs[4].pageNumber'],
      ['SR_SCHEMA_VALUE', 'envelopes[0].recipients[0].tabs.textTabs[5].anchorXOffset'],
      ['SR_TAB_VALUE_INVALID', 'envelopes[0].recipients[0].tabs.listTabs[0].listItems'],
      ['SR_TAB_VALUE_INVALID', 'envelopes[0].recipients[0].tabs.radioGroupTabs[0].radios'],
    ]);
  });

  it('checks template roles’ values too', async () => {
    const result = await load('role-values', {
      'job.yaml': `${header}envelopes:
  - key: t1
    templateId: tpl-1
    templateRoles:
      - roleName: employee
        name: Jean
        email: jean@example.com
        tabs:
          numberTabs: [{ tabLabel: salary, value: "sixty" }]
`,
    });
    expect(errors(result)).toEqual([
      {
        code: 'SR_TAB_VALUE_INVALID',
        file: 'job.yaml',
        line: 12,
        column: 51,
        field: 'envelopes[0].templateRoles[0].tabs.numberTabs[0].value',
      },
    ]);
  });
});

describe('reading documents’ text for anchors', () => {
  it('stops at its limits instead of reading a whole document', async () => {
    const { PageTextLimitError, readPageText } = await import('../../src/pdf/page-text.js');
    await expect(readPageText(pdf, { pages: 1 })).rejects.toBeInstanceOf(PageTextLimitError);
    await expect(readPageText(pdf, { runs: 2 })).rejects.toThrow(/more than 2 runs/);
    expect((await readPageText(pdf, { pages: 2, runs: 1000, milliseconds: 60_000 })).length).toBe(2);
  });

  it('leaves the process its native JSON.stringify (pdf.js’s core-js replaces it with a slow one)', async () => {
    const { readPageText } = await import('../../src/pdf/page-text.js');
    await readPageText(pdf);
    expect(Function.prototype.toString.call(JSON.stringify)).toContain('[native code]');
  });

  it('reads each file once, however many envelopes share it', async () => {
    const { documentTextReader } = await import('../../src/jobs/document-text.js');
    const dir = folder('text-once', { 'offer.pdf': pdf });
    const read = documentTextReader();
    const first = read(join(dir, 'offer.pdf'));
    expect(read(join(dir, 'offer.pdf'))).toBe(first);
    expect(await first).toMatchObject({ ok: true });
  });

  it('reads the same text on its worker thread as on this one (the built reader, which has the worker)', async () => {
    const built = (await import(
      join(repoRoot, 'dist/jobs/document-text.js')
    )) as typeof import('../../src/jobs/document-text.js');
    const dir = folder('text-worker', { 'offer.pdf': pdf });
    const warm = built.documentTextReader();
    warm.warm();
    try {
      const [onWorker, here] = await Promise.all([
        warm(join(dir, 'offer.pdf')),
        built.readDocumentText(join(dir, 'offer.pdf')),
      ]);
      expect(onWorker).toEqual(here);
      expect(onWorker.ok && onWorker.pages.length).toBe(2);
    } finally {
      warm.close();
    }
  });
});

describe('the digest of tabs', () => {
  it('keeps a tab without new fields as it was, and changes with any field, list item or radio', async () => {
    const { envelopeDigest } = await import('../../src/jobs/envelope-digest.js');
    const dir = folder('digest', {
      'offer.pdf': pdf,
      'job.yaml': oneSigner(`          textTabs:
            - tabLabel: salary
              value: "1"
              pageNumber: 1
              xPosition: 1
              yPosition: 1
          listTabs:
            - { pageNumber: 1, xPosition: 1, yPosition: 40, listItems: [{ text: A }] }
          radioGroupTabs:
            - { groupName: g, radios: [{ value: a, pageNumber: 1, xPosition: 1, yPosition: 80 }] }
`),
    });
    const [job] = jobs(await loadJobs([dir], { cwd: dir, env: {} }));
    const envelope = job!.envelopes[0]!;
    const digest = () => envelopeDigest(envelope);
    const before = digest();
    expect(before).toBe(envelope.digest);
    const [text, list, radio] = envelope.recipients[0]!.tabs;
    const changes: Array<() => void> = [
      () => (text!.fields!['locked'] = 'true'),
      () => (text!.fields!['tabLabel'] = 'pay'),
      () => (list!.listItems![0]!.selected = 'true'),
      () => (radio!.radios![0]!.value = 'b'),
      () => (radio!.radios![0]!.place = { anchorString: 'Holidays' }),
    ];
    const seen = new Set([before]);
    for (const change of changes) {
      change();
      expect(seen.has(digest())).toBe(false);
      seen.add(digest());
    }
  });
});
