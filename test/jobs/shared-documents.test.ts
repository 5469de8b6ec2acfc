import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 37, flat memory: the rows of a forEach pattern that send the same files share one
// list of document objects (the job model is what grows with the rows); a row whose file
// differs has its own, and every row's documents are complete and right.

const work = join(repoRoot, `test/.tmp/shared-documents-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A fresh job folder: each docs/<name> a copy of examples/docs/<example>,
 * people.csv and job.yaml (its lines) as given; its one job's envelopes, loaded.
 */
async function envelopesOf(docs: Record<string, string>, csv: string, job: string[]) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'docs'), { recursive: true });
  for (const [name, example] of Object.entries(docs))
    writeFileSync(join(work, 'docs', name), readFileSync(join(repoRoot, 'examples/docs', example)));
  writeFileSync(join(work, 'people.csv'), csv);
  writeFileSync(join(work, 'job.yaml'), [...job, ''].join('\n'));
  const result = await loadJobs([work], { cwd: work, env: {} });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.jobs[0]!.envelopes;
}

describe('documents of a forEach pattern', () => {
  it('are one list of objects for the rows that send the same files, their own for a row that does not', async () => {
    const [one, two, three] = await envelopesOf(
      { 'a.pdf': 'offer-letter.pdf', 'b.pdf': 'company-handbook.pdf' },
      'id,letter\n1,a.pdf\n2,a.pdf\n3,b.pdf\n',
      [
        'version: 1',
        'job: shared',
        'defaults: { emailSubject: Sign }',
        'envelopes:',
        '  - key: e-${row.id}',
        '    forEach: { csv: people.csv }',
        '    documents:',
        '      - { name: letter.pdf, file: "docs/${row.letter}" }',
        '      - { name: handbook.pdf, file: docs/b.pdf }',
        '    recipients: [{ name: "P ${row.id}", email: "p${row.id}@example.com" }]',
      ],
    );
    expect(two!.documents).toBe(one!.documents);
    expect(three!.documents).not.toBe(one!.documents);
    // The handbook is the same document in every row: one object.
    expect(three!.documents[1]).toBe(one!.documents[1]);
    expect(three!.documents[0]).not.toBe(one!.documents[0]);
    expect(three!.documents.map((d) => [d.documentId, d.name, d.pageCount])).toEqual([
      ['1', 'letter.pdf', 1],
      ['2', 'handbook.pdf', 1],
    ]);
    expect(one!.documents[0]!.sha256).not.toBe(three!.documents[0]!.sha256);
    // Each row's digest still says what it sends.
    expect(one!.digest).not.toBe(three!.digest);
  });

  it('of one document a row (a letter a row) are one list for the rows that send the same document, and one object for it in any list', async () => {
    const [handbook, renamed, one, two, three, solo, pair] = await envelopesOf(
      { 'a.pdf': 'offer-letter.pdf', 'b.pdf': 'company-handbook.pdf', 'c.pdf': 'company-handbook.pdf' },
      'id,letter\n1,a.pdf\n2,b.pdf\n3,a.pdf\n',
      [
        'version: 1',
        'job: shared-one',
        'defaults: { emailSubject: Sign }',
        'envelopes:',
        '  - key: handbook',
        '    documents: [{ name: letter.pdf, file: docs/b.pdf }]',
        '    recipients: [{ name: P, email: p@example.com }]',
        // The offer letter under another name: the same file, another document.
        '  - key: renamed',
        '    documents: [{ name: renamed.pdf, file: docs/a.pdf }]',
        '    recipients: [{ name: P, email: p@example.com }]',
        '  - key: e-${row.id}',
        '    forEach: { csv: people.csv }',
        '    documents: [{ name: letter.pdf, file: "docs/${row.letter}" }]',
        '    recipients: [{ name: "P ${row.id}", email: "p${row.id}@example.com" }]',
        // A file named by one list of one document only, then in a list of two: one object in both lists.
        '  - key: solo',
        '    documents: [{ name: letter.pdf, file: docs/c.pdf }]',
        '    recipients: [{ name: P, email: p@example.com }]',
        '  - key: pair',
        '    documents: [{ name: letter.pdf, file: docs/c.pdf }, { name: other.pdf, file: docs/a.pdf }]',
        '    recipients: [{ name: P, email: p@example.com }]',
      ],
    );
    expect(three!.documents).toBe(one!.documents);
    expect(two!.documents).toBe(handbook!.documents);
    expect(one!.documents).not.toBe(renamed!.documents);
    expect(one!.documents[0]).not.toBe(renamed!.documents[0]);
    expect(pair!.documents[0]).toBe(solo!.documents[0]);
    expect(pair!.documents[1]).not.toBe(one!.documents[0]);
    expect(
      [renamed, one, two, three, solo, pair].map((e) => e!.documents.map((d) => [d.documentId, d.name, d.pageCount])),
    ).toEqual([
      [['1', 'renamed.pdf', 2]],
      [['1', 'letter.pdf', 2]],
      [['1', 'letter.pdf', 1]],
      [['1', 'letter.pdf', 2]],
      [['1', 'letter.pdf', 1]],
      [
        ['1', 'letter.pdf', 1],
        ['2', 'other.pdf', 2],
      ],
    ]);
    expect(one!.documents[0]!.sha256).not.toBe(two!.documents[0]!.sha256);
    expect(one!.digest).not.toBe(two!.digest);
  });

  it("are never shared when they are Word letters: each row's merge-field values stay its own", async () => {
    const result = await loadJobs([join(repoRoot, 'examples/word-offer-letters.yaml')], { cwd: repoRoot, env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const [one, two] = result.jobs[0]!.envelopes;
    expect(two!.documents).not.toBe(one!.documents);
    const salaryOf = (e: typeof one) =>
      e!.documents.flatMap((d) => d.docGenFormFields ?? []).find((f) => f.name === 'Salary')?.value;
    expect(salaryOf(one)).toBeDefined();
    expect(salaryOf(two)).not.toBe(salaryOf(one));
  });
});
