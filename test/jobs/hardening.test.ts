import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { repoRoot } from '../helpers/run-cli.js';

/** Job files written by someone who means harm or by a bad day (issue 14). */
const work = join(repoRoot, `test/.tmp/hardening-${process.pid}`);
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

const header = 'version: 1\njob: j\ndefaults: { emailSubject: Sign, returnUrl: https://example.com/done }\n';
const envelope = (extra: string) =>
  [
    'envelopes:',
    '  - key: e1',
    '    documents: [{ name: a.pdf, file: a.pdf }]',
    '    recipients: [{ name: Ann, email: ann@example.com }]',
    extra,
    '',
  ].join('\n');

beforeAll(() => mkdirSync(work, { recursive: true }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('reserved custom fields (item 3)', () => {
  it('refuses a custom field named signrun or signrunDigest, written out or filled in from a row, with its position', async () => {
    const dir = folder('reserved', {
      'a.pdf': pdf,
      'data.csv': 'id,field\n1,SignRun\n',
      'j.yaml':
        header +
        envelope(
          '    customFields: [{ name: signrun, value: payroll/contract-alice }, { name: signrunDigest, value: x }, { name: payrollRef, value: ok }]',
        ),
      'k.yaml': [
        'version: 1',
        'job: k',
        'defaults: { emailSubject: Sign }',
        'envelopes:',
        '  - key: e-${row.id}',
        '    forEach: { csv: data.csv }',
        '    documents: [{ name: a.pdf, file: a.pdf }]',
        '    recipients: [{ name: Ann, email: ann@example.com }]',
        '    customFields: [{ name: "${row.field}", value: x }]',
        '',
      ].join('\n'),
    });
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // The name filled in from a row is shown at the row that gave it.
    expect(result.errors.map((e) => [e.code, e.file, e.line, e.field])).toEqual([
      ['SR_CUSTOM_FIELD_RESERVED', 'data.csv', 2, 'envelopes[0].customFields[0].name'],
      ['SR_CUSTOM_FIELD_RESERVED', 'j.yaml', 8, 'envelopes[0].customFields[0].name'],
      ['SR_CUSTOM_FIELD_RESERVED', 'j.yaml', 8, 'envelopes[0].customFields[1].name'],
    ]);
  });
});

/**
 * A small PDF whose object stream inflates to `inflated` bytes (a "zip bomb"):
 * otherwise well formed, so that a reader without a budget reads it whole and
 * calls it valid.
 */
function inflatingPdf(inflated: number): Buffer {
  const parts: Buffer[] = [];
  let length = 0;
  const offsets: number[] = [];
  const add = (chunk: string | Buffer) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(b);
    length += b.length;
  };
  const body = Buffer.alloc(inflated, 0x20);
  body.write('5 0 << /Padding true >>', 'latin1');
  const packed = deflateSync(body, { level: 9 });
  add('%PDF-1.5\n');
  offsets.push(length);
  add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  offsets.push(length);
  add('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n');
  offsets.push(length);
  add('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n');
  offsets.push(length);
  add(`4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`);
  add(packed);
  add('\nendstream\nendobj\n');
  const xref = length;
  add(`xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  add(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

describe('decompression budget of the PDF reader (item 6)', () => {
  it('refuses a PDF whose object streams inflate past the budget (SR_DOC_INFLATE_LIMIT, at the document), reads a small one', async () => {
    const bomb = inflatingPdf(96 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const dir = folder('inflate', {
      'bomb.pdf': bomb,
      'fine.pdf': inflatingPdf(64 * 1024),
      'j.yaml': [
        header.trimEnd(),
        'envelopes:',
        '  - key: e1',
        '    documents: [{ name: fine.pdf, file: fine.pdf }, { name: bomb.pdf, file: bomb.pdf }]',
        '    recipients: [{ name: Ann, email: ann@example.com }]',
        '',
      ].join('\n'),
    });
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.code, e.file, e.line, e.field])).toEqual([
      ['SR_DOC_INFLATE_LIMIT', 'j.yaml', 6, 'envelopes[0].documents[1].file'],
    ]);
    expect(result.errors[0]?.message).toMatch(/bomb\.pdf.*inflate to more than 64 MiB/);
  });
});

describe('credential variables outside credential fields (item 9)', () => {
  it('refuses ${env.DOCUSIGN_PASSWORD}, a token, or a variable used as a password anywhere but initialUser.password', async () => {
    const dir = folder('secrets', {
      'a.pdf': pdf,
      'j.yaml': [
        'version: 1',
        'job: j',
        'defaults: { emailSubject: "Sign ${env.DOCUSIGN_PASSWORD}", returnUrl: https://example.com/done }',
        'envelopes:',
        '  - key: e1',
        '    documents: [{ name: "${env.DOCUSIGN_ACCESS_TOKEN}.pdf", file: a.pdf }]',
        '    recipients: [{ name: "${env.ACME_PW}", email: ann@example.com }]',
        '    emailBlurb: "From ${env.DOCUSIGN_USERNAME}, plan ${env.PLAN}"',
        'accounts:',
        '  - key: acme',
        '    accountName: Acme',
        '    initialUser: { email: admin@example.com, firstName: A, lastName: B, password: "${env.ACME_PW}" }',
        '    planInformation: { planId: "${env.PLAN}" }',
        '',
      ].join('\n'),
    });
    const env = {
      DOCUSIGN_PASSWORD: 'pw-1',
      DOCUSIGN_ACCESS_TOKEN: 'tok-2',
      DOCUSIGN_USERNAME: 'me@example.com',
      ACME_PW: 'pw-3',
      PLAN: 'plan-1',
    };
    const result = await loadJobs([dir], { cwd: dir, env });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.code, e.line, e.field])).toEqual([
      ['SR_SECRET_OUTSIDE_CREDENTIAL', 3, 'defaults.emailSubject'],
      ['SR_SECRET_OUTSIDE_CREDENTIAL', 6, 'envelopes[0].documents[0].name'],
      ['SR_SECRET_OUTSIDE_CREDENTIAL', 7, 'envelopes[0].recipients[0].name'],
    ]);
    for (const secret of ['pw-1', 'tok-2', 'pw-3']) expect(JSON.stringify(result.errors)).not.toContain(secret);
  });
});

describe('names that become paths (item 10)', () => {
  it('refuses a job named like a report and an account key that is not a plain name, as run would', async () => {
    const dir = folder('paths', {
      'a.pdf': pdf,
      'j.yaml': ['version: 1', 'job: Report.json', 'defaults: { emailSubject: Sign }', envelope('')].join('\n'),
      'k.yaml': [
        'version: 1',
        'job: k',
        'accounts:',
        '  - key: ../..',
        '    accountName: Acme',
        '    initialUser: { email: admin@example.com, firstName: A, lastName: B, password: "${env.PW}" }',
        '    planInformation: { planId: p }',
        '',
      ].join('\n'),
    });
    const result = await loadJobs([dir], { cwd: dir, env: { PW: 'x' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.code, e.file, e.line, e.field])).toEqual([
      ['SR_SCHEMA_VALUE', 'j.yaml', 2, 'job'],
      ['SR_SCHEMA_VALUE', 'k.yaml', 4, 'accounts[0].key'],
    ]);
    expect(result.errors[0]?.message).toMatch(/report/);
  });
});

describe('row values and prototype names (item 10)', () => {
  it('a CSV column named __proto__ is a column; ${row.constructor} of forEach.items is a missing column', async () => {
    const csvDir = folder('proto-csv', {
      'a.pdf': pdf,
      'data.csv': 'id,__proto__\n1,Ann Proto\n',
      'j.yaml': [
        'version: 1',
        'job: j',
        'defaults: { emailSubject: Sign }',
        'envelopes:',
        '  - key: e-${row.id}',
        '    forEach: { csv: data.csv }',
        '    documents: [{ name: a.pdf, file: a.pdf }]',
        '    recipients: [{ name: "${row.__proto__}", email: ann@example.com }]',
        '',
      ].join('\n'),
    });
    const loaded = await loadJobs([csvDir], { cwd: csvDir, env: {} });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    expect(loaded.jobs[0]?.envelopes[0]?.recipients[0]?.name).toBe('Ann Proto');

    const itemsDir = folder('proto-items', {
      'a.pdf': pdf,
      'j.yaml': [
        'version: 1',
        'job: j',
        'defaults: { emailSubject: Sign }',
        'envelopes:',
        '  - key: e-${row.id}',
        '    forEach: { items: [{ id: "1" }] }',
        '    documents: [{ name: a.pdf, file: a.pdf }]',
        '    recipients: [{ name: "${row.constructor}", email: ann@example.com }]',
        '',
      ].join('\n'),
    });
    const result = await loadJobs([itemsDir], { cwd: itemsDir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.code)).toEqual(['SR_ROW_COLUMN_MISSING']);
  });
});

describe('deep YAML (item 10)', () => {
  it('nesting deeper than the parser can follow is SR_YAML_TOO_DEEP, whether flow or block', async () => {
    const dir = folder('deep', {
      'flow.yaml': `version: 1\njob: flow\nx: ${'['.repeat(900)}${']'.repeat(900)}\n`,
      'maps.yaml': `version: 1\njob: maps\nx: ${'{a: '.repeat(3000)}1${'}'.repeat(3000)}\n`,
      'block.yaml': `version: 1\njob: block\nx:\n${Array.from({ length: 1500 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}\n`,
    });
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.file, e.code])).toEqual([
      ['block.yaml', 'SR_YAML_TOO_DEEP'],
      ['flow.yaml', 'SR_YAML_TOO_DEEP'],
      ['maps.yaml', 'SR_YAML_TOO_DEEP'],
    ]);
  });
});
