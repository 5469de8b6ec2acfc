import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { confinedListedPath, listFrom, type FolderListings } from '../../src/jobs/confined-path.js';
import { repoRoot } from '../helpers/run-cli.js';

// Per-row documents are looked up in their folder's listing once the folder is
// named often (issue 37): what a row's document is (too large, a symbolic
// link out, missing, a folder, not a PDF) must be said as when each was
// looked up alone, at the CSV line and field that named it.
const work = join(repoRoot, `test/.tmp/confined-listing-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));
const rows = listFrom + 10;

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'job/letters'), { recursive: true });
  mkdirSync(join(work, 'outside'), { recursive: true });
  writeFileSync(join(work, 'outside/secret.pdf'), pdf);
  for (let i = 1; i <= rows; i++) writeFileSync(join(work, `job/letters/${i}.pdf`), pdf);
  const letter = (i: number) => join(work, `job/letters/${i}.pdf`);
  // After the listing's threshold, so that each is found (or not) in the listing.
  truncateSync(letter(listFrom + 2), 26 * 1024 * 1024); // sparse: its size is real, nothing written
  rmSync(letter(listFrom + 3));
  symlinkSync(join(work, 'outside/secret.pdf'), letter(listFrom + 3));
  rmSync(letter(listFrom + 4));
  rmSync(letter(listFrom + 5));
  mkdirSync(letter(listFrom + 5));
  rmSync(letter(listFrom + 6));
  symlinkSync(letter(1), letter(listFrom + 6)); // inside: fine
  writeFileSync(letter(listFrom + 7), 'not a PDF at all\n');
  writeFileSync(
    join(work, 'job/job.yaml'),
    'version: 1\njob: j\ndefaults: { emailSubject: Sign, returnUrl: https://example.com/done }\nenvelopes:\n  - key: letter-${row.id}\n    forEach: { csv: rows.csv }\n    documents: [{ file: "letters/${row.id}.pdf" }]\n    recipients: [{ name: A, email: a@example.com }]\n',
  );
  writeFileSync(join(work, 'job/rows.csv'), `id\n${Array.from({ length: rows }, (_, i) => i + 1).join('\n')}\n`);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('documents of a listed folder', () => {
  it('are said at their CSV line as when each was looked up alone', async () => {
    const result = await loadJobs(['job.yaml'], { cwd: join(work, 'job'), env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const line = (offset: number) => listFrom + offset + 1; // the header is line 1
    expect(result.errors.map((e) => [e.code, e.file, e.line, e.field])).toEqual([
      ['SR_DOC_TOO_LARGE', 'rows.csv', line(2), 'envelopes[0].documents[0].file'],
      ['SR_DOC_OUTSIDE_JOB_FOLDER', 'rows.csv', line(3), 'envelopes[0].documents[0].file'],
      ['SR_DOC_NOT_FOUND', 'rows.csv', line(4), 'envelopes[0].documents[0].file'],
      ['SR_DOC_NOT_FOUND', 'rows.csv', line(5), 'envelopes[0].documents[0].file'],
      ['SR_DOC_NOT_PDF', 'rows.csv', line(7), 'envelopes[0].documents[0].file'],
    ]);
    const messages = result.errors.map((e) => e.message);
    expect(messages[0]).toMatch(new RegExp(`letters/${listFrom + 2}\\.pdf is .+; the service accepts at most`));
    expect(messages[1]).toContain('a symbolic link leading outside');
    expect(messages[3]).toContain('is not a file');
  });

  it('are taken from the listing from the threshold on, sizes left to the reader', () => {
    const folder = realpathSync(join(work, 'job'));
    const folders = new Map<string, string | null>();
    const listings: FolderListings = { named: new Map(), files: new Map() };
    const at = (i: number) => confinedListedPath(folder, folder, join(folder, `letters/${i}.pdf`), folders, listings);
    const before = Array.from({ length: listFrom - 1 }, (_, i) => at(i + 1));
    expect(before.every((c) => c.ok && c.size === pdf.length)).toBe(true);
    expect(at(listFrom)).toEqual({ ok: true, real: join(folder, `letters/${listFrom}.pdf`), size: undefined });
    // Not plain files in the listing: looked up as before.
    expect(at(listFrom + 3)).toEqual({ ok: false, problem: 'symlink-outside' });
    expect(at(listFrom + 4)).toEqual({ ok: false, problem: 'missing' });
    expect(at(listFrom + 5)).toEqual({ ok: false, problem: 'not-a-file' });
    expect(at(listFrom + 6)).toMatchObject({ ok: true, real: join(folder, 'letters/1.pdf'), size: pdf.length });
    expect(confinedListedPath(folder, folder, join(work, 'outside/secret.pdf'), folders, listings)).toEqual({
      ok: false,
      problem: 'outside',
    });
  });

  it("are outside in a folder whose name only begins with the job folder's, named or reached by a link", () => {
    // `job-evil` starts with `job`: a prefix test without the separator would take it for inside.
    mkdirSync(join(work, 'job-evil'), { recursive: true });
    for (let i = 1; i <= listFrom + 2; i++) writeFileSync(join(work, `job-evil/${i}.pdf`), pdf);
    symlinkSync(join(work, 'job-evil'), join(work, 'job/evil'));
    const folder = realpathSync(join(work, 'job'));
    const folders = new Map<string, string | null>();
    const listings: FolderListings = { named: new Map(), files: new Map() };
    const named = (i: number) =>
      confinedListedPath(folder, folder, join(folder, `../job-evil/${i}.pdf`), folders, listings);
    const linked = (i: number) => confinedListedPath(folder, folder, join(folder, `evil/${i}.pdf`), folders, listings);
    for (let i = 1; i <= listFrom + 2; i++) {
      expect(named(i)).toEqual({ ok: false, problem: 'outside' });
      // From the threshold on, found in the listing of the folder the link leads to.
      expect(linked(i)).toEqual({ ok: false, problem: 'symlink-outside' });
    }
    expect(listings.files.get(realpathSync(join(work, 'job-evil')))?.size).toBe(listFrom + 2);
  });
});
