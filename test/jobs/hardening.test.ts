import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
