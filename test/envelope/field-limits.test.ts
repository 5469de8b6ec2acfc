import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLengthProblem, fieldLimits } from '../../src/envelope/field-limits.js';
import { loadJobs } from '../../src/jobs/index.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 26: DocuSign's documented field limits, in one table
// (src/envelope/field-limits.ts) that validate checks offline and the sandbox
// enforces. Where the table names the Swagger as its source, the Swagger's
// description says that very maximum.

const swagger = JSON.parse(
  readFileSync(join(repoRoot, 'test/fixtures/docusign/esignature.rest.swagger-v2.1.json'), 'utf8'),
) as { definitions: Record<string, { properties: Record<string, { description?: string }> }> };

describe('the table of field limits', () => {
  it('says what the Swagger says, wherever it names the Swagger', () => {
    const cited = Object.values(fieldLimits).filter((l) =>
      l.source.startsWith('DocuSign eSignature REST v2.1 Swagger'),
    );
    expect(cited.length).toBeGreaterThanOrEqual(4);
    for (const limit of cited) {
      const [definition, property] = /, (\w+)\.(\w+)$/.exec(limit.source)!.slice(1) as [string, string];
      const description = swagger.definitions[definition]!.properties[property]!.description ?? '';
      expect(description.replace(/,/g, ''), `${definition}.${property}`).toMatch(
        new RegExp(`Maximum [Ll]ength: ${limit.max} characters`),
      );
    }
  });

  it('counts as DocuSign counts: the limit itself fits, one more does not', () => {
    expect(fieldLengthProblem('emailSubject', 'x'.repeat(100))).toBeUndefined();
    expect(fieldLengthProblem('emailSubject', 'x'.repeat(101))).toBe(
      'emailSubject is 101 characters long; DocuSign takes at most 100',
    );
    expect(fieldLengthProblem('recipientName', undefined)).toBeUndefined();
  });
});

const work = join(repoRoot, `test/.tmp/field-limits-${process.pid}`);
beforeAll(() => mkdirSync(work, { recursive: true }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('validate checks them offline', () => {
  it('a value too long from a CSV row is SR_FIELD_TOO_LONG at its cell; a long document name at its line', async () => {
    const dir = join(work, 'rows');
    mkdirSync(join(dir, 'docs'), { recursive: true });
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'docs/offer.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
    const subject = 'S'.repeat(190);
    writeFileSync(
      join(dir, 'data/people.csv'),
      `id,subject,name,blurb\n1,${subject},Ann,ok\n2,Fine,${'N'.repeat(101)},${'B'.repeat(10_001)}\n3,Fine,Bob,ok\n`,
    );
    writeFileSync(
      join(dir, 'job.yaml'),
      [
        'version: 1',
        'job: limits',
        'envelopes:',
        '  - key: r-${row.id}',
        '    forEach: { csv: data/people.csv }',
        '    emailSubject: "${row.subject}"',
        '    emailBlurb: "${row.blurb}"',
        '    documents:',
        `      - { name: ${'d'.repeat(97)}.pdf, file: docs/offer.pdf }`,
        '    recipients:',
        '      - { name: "${row.name}", email: a@example.com }',
        '',
      ].join('\n'),
    );
    const result = await loadJobs(['.'], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.errors
      .filter((d) => d.code === 'SR_FIELD_TOO_LONG')
      .map((d) => `${d.file}:${d.line}:${d.column} ${d.field ?? ''}`);
    expect(found.sort()).toEqual(
      [
        'data/people.csv:2:3 envelopes[0].emailSubject',
        'data/people.csv:3:8 envelopes[0].recipients[0].name',
        'data/people.csv:3:110 envelopes[0].emailBlurb',
        'job.yaml:9:17 envelopes[0].documents[0].name',
      ].sort(),
    );
    expect(result.errors.every((d) => d.code === 'SR_FIELD_TOO_LONG')).toBe(true);
  });

  // That the examples still validate under these limits is load-jobs.test.ts's
  // "expands, numbers and resolves every example" (the same loadJobs of examples/).
});
