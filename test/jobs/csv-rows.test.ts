import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsvRows } from '../../src/jobs/csv-rows.js';
import { repoRoot } from '../helpers/run-cli.js';

const dir = join(repoRoot, `test/.tmp/csv-rows-${process.pid}`);

async function rows(text: string) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, text);
  return readCsvRows(path, 'rows.csv');
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readCsvRows', () => {
  it('gives each row its line and each cell its column, across blank lines and quoted newlines', async () => {
    const result = await rows(
      'id,name,email\n1,"Ann\nMarie",ann@example.com\n\n2,"Bob, Jr",bob@example.com\r\n3,Carl,carl@example.com\n',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.columns).toEqual(['id', 'name', 'email']);
    const taken = Array.from({ length: result.rows.length }, (_, i) => result.rows.take(i));
    expect(taken.map((r) => [r.values['name'], r.line])).toEqual([
      ['Ann\nMarie', 2],
      ['Bob, Jr', 5],
      ['Carl', 6],
    ]);
    expect(taken[1]!.cellColumn('email')).toBe(13);
    expect(taken[2]!.cellColumn('id')).toBe(1);
    // A row's cells are let go once it is made (issue 37): it is taken once.
    expect(() => result.rows.take(1)).toThrow(/taken twice/);
  });

  it("gives a row kept to be taken again (a streamed run's) exactly its cells each time, quoted or not", async () => {
    // Rows without quotes are kept as their place in the text and split again; the others as copies.
    const lines = [
      'id;name;note',
      '1;Ann;plain',
      '',
      '2;"Bob; Jr";"said ""hi"""',
      '3;;trailing space ',
      '4;"Dee',
      'Dot";x',
      '5;Eve;',
      '6;Fay;last',
    ];
    for (const newline of ['\n', '\r\n']) {
      const text = lines.join(newline);
      const kept = await rows(text);
      const once = await rows(text);
      if (!kept.ok || !once.ok) throw new Error('the CSV did not read');
      const expected = Array.from({ length: once.rows.length }, (_, i) => once.rows.take(i));
      expect(expected.map((r) => r.values['note'])).toEqual(['plain', 'said "hi"', 'trailing space ', 'x', '', 'last']);
      for (let i = 0; i < kept.rows.length; i++) {
        const first = kept.rows.take(i, true);
        const again = kept.rows.take(i, true);
        const last = kept.rows.take(i);
        for (const row of [first, again, last]) {
          expect({ ...row.values }).toEqual({ ...expected[i]!.values });
          expect(row.line).toBe(expected[i]!.line);
        }
        expect(() => kept.rows.take(i)).toThrow(/taken twice/);
      }
    }
  });

  it('reports rows of the wrong length, empty files and repeated columns as SR_CSV_INVALID', async () => {
    const ragged = await rows('a,b\n1,2\n3\n');
    expect(ragged).toMatchObject({ ok: false, code: 'SR_CSV_INVALID', line: 3 });
    expect(await rows('')).toMatchObject({ ok: false, code: 'SR_CSV_INVALID' });
    expect(await rows('a,a\n1,2\n')).toMatchObject({ ok: false, code: 'SR_CSV_INVALID', line: 1 });
    expect(await rows('a,"b\n1,2\n')).toMatchObject({ ok: false, code: 'SR_CSV_INVALID' });
  });
});
