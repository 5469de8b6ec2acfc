import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { ResolvedEnvelope } from '../../src/jobs/model.js';
import { chunkOfRows } from '../../src/jobs/resolve-envelopes.js';
import { expandedEnvelope, RowEnvelope } from '../../src/jobs/row-envelope.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 37, the streaming plan: `run` loads each forEach row's envelope as its row (its cells,
// its key) and expands it again when it is read or sent. What it expands to must be exactly
// what loading made of it without streaming — every field, the digest, the shared documents.

const work = join(repoRoot, `test/.tmp/row-envelope-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every field of an envelope as a plain object (a row's getters read into own properties). */
function plain(envelope: ResolvedEnvelope): Record<string, unknown> {
  const full = expandedEnvelope(envelope);
  return JSON.parse(JSON.stringify(full)) as Record<string, unknown>;
}

function writeJob(rows: number, newline = '\n'): void {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'docs'), { recursive: true });
  writeFileSync(join(work, 'docs/a.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
  writeFileSync(join(work, 'docs/b.pdf'), readFileSync(join(repoRoot, 'examples/docs/company-handbook.pdf')));
  const lines = ['id,name,status,letter'];
  for (let i = 1; i <= rows; i++)
    // Some cells quoted: a row with quotes is kept as a copy of its cells, the others as their place in the text.
    lines.push(
      `${i},${i % 5 === 3 ? `"Doe, ${i}"` : `Person ${i}`},${i % 7 === 0 ? 'created' : ''},${i % 2 ? 'a' : 'b'}.pdf`,
    );
  writeFileSync(join(work, 'people.csv'), `${lines.join(newline)}${newline}`);
  writeFileSync(
    join(work, 'job.yaml'),
    [
      'version: 1',
      'job: rows',
      'defaults: { emailSubject: Sign, returnUrl: https://example.com/done }',
      'envelopes:',
      '  - key: e-${row.id}',
      '    forEach: { csv: people.csv }',
      '    emailSubject: "Sign, ${row.name}"',
      '    status: "${row.status}"',
      '    customFields: [{ name: team, value: "t-${row.id}" }]',
      '    documents:',
      '      - { name: letter.pdf, file: docs/a.pdf }',
      '      - { name: handbook.pdf, file: docs/b.pdf }',
      '    recipients:',
      '      - name: "${row.name}"',
      '        email: "p${row.id}@example.com"',
      '        clientUserId: "c-${row.id}"',
      '        tabs:',
      '          signHereTabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
      '          textTabs: [{ tabLabel: Name, value: "${row.name}", locked: true, documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 200 }]',
      '      - { name: "Manager ${row.id}", email: "m${row.id}@example.com" }',
      // Its own PDF a row: read and checked per row, kept as plain envelopes.
      '  - key: own-${row.id}',
      '    forEach: { csv: people.csv }',
      '    documents: [{ name: letter.pdf, file: "docs/${row.letter}" }]',
      '    recipients: [{ name: "${row.name}", email: "o${row.id}@example.com" }]',
      // One plain envelope.
      '  - key: single',
      '    documents: [{ file: docs/a.pdf }]',
      '    recipients: [{ name: One, email: one@example.com }]',
      '',
    ].join('\n'),
  );
}

describe('a streamed load (signrun run)', () => {
  it('keeps each row of a pattern with shared documents as its row, expanding to exactly what a plain load makes', async () => {
    const usual = chunkOfRows.streamed;
    // Several chunks, the last one short.
    chunkOfRows.streamed = 8;
    try {
      writeJob(21, '\r\n');
      const streamed = await loadJobs([work], { cwd: work, env: {}, streamRows: true });
      const loaded = await loadJobs([work], { cwd: work, env: {} });
      if (!streamed.ok || !loaded.ok) throw new Error('the job did not load');
      const rows = streamed.jobs[0]!.envelopes;
      const plainOnes = loaded.jobs[0]!.envelopes;
      expect(rows.map((e) => e.key)).toEqual(plainOnes.map((e) => e.key));
      expect(rows).toHaveLength(21 + 21 + 1);
      // The shared-documents pattern's rows are rows; the others are plain envelopes.
      expect(rows.filter((e) => e instanceof RowEnvelope).map((e) => e.key)).toEqual(
        plainOnes.filter((e) => e.key.startsWith('e-')).map((e) => e.key),
      );
      // A row holds no expanded envelope: its recipients are not its own.
      expect(Object.keys(rows[0]!)).toEqual(['key', 'row']);
      rows.forEach((envelope, i) => {
        const made = plainOnes[i]!;
        expect(envelope.digest).toBe(made.digest);
        expect(plain(envelope)).toEqual(JSON.parse(JSON.stringify(made)));
        // Read field by field (the passes before the plan do), the same values.
        expect(envelope.recipients.map((r) => r.email)).toEqual(made.recipients.map((r) => r.email));
        expect(envelope.status).toBe(made.status);
        expect(envelope.rowSource).toEqual(made.rowSource);
        expect(envelope.documents).toEqual(made.documents);
      });
      // Expanded twice, the same again (the row's cells are kept).
      expect(plain(rows[3]!)).toEqual(plain(rows[3]!));
    } finally {
      chunkOfRows.streamed = usual;
    }
  });

  it('still checks every row before returning: a bad row fails the load, naming its CSV line and field', async () => {
    writeJob(30);
    const csv = readFileSync(join(work, 'people.csv'), 'utf8');
    writeFileSync(join(work, 'people.csv'), csv.replace('\n25,Person 25,', '\n25,,'));
    writeFileSync(
      join(work, 'job.yaml'),
      readFileSync(join(work, 'job.yaml'), 'utf8').replace(
        'emailSubject: "Sign, ${row.name}"',
        'emailSubject: "${row.name}"',
      ),
    );
    const streamed = await loadJobs([work], { cwd: work, env: {}, streamRows: true });
    expect(streamed.ok).toBe(false);
    if (streamed.ok) return;
    expect(streamed.errors.map((e) => [e.code, e.file.endsWith('people.csv'), e.line])).toContainEqual([
      'SR_EMAIL_SUBJECT_MISSING',
      true,
      26,
    ]);
  });
});
