import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findJobFiles } from '../../src/jobs/find-job-files.js';
import { repoRoot } from '../helpers/run-cli.js';

// A folder's job files are found with a listing that leaves out the plain files the pattern
// could not take (issue 37: a campaign's letters beside its job file): what is found must be
// what fast-glob finds on its own, links, dot files, node_modules and names' case included.
const work = join(repoRoot, `test/.tmp/find-job-files-${process.pid}`);
const folder = join(work, 'job');

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  for (const dir of ['job/letters', 'job/sub/deeper', 'job/.hidden', 'job/node_modules/pkg', 'elsewhere'])
    mkdirSync(join(work, dir), { recursive: true });
  const files = [
    'job/a.yaml',
    'job/b.yml',
    'job/c.txt',
    'job/d.YAML',
    'job/.dot.yaml',
    'job/e.yaml.pdf',
    'job/sub/f.yaml',
    'job/sub/deeper/g.yml',
    'job/.hidden/h.yaml',
    'job/node_modules/pkg/i.yaml',
    'elsewhere/j.yaml',
    'elsewhere/k.yml',
  ];
  for (const file of files) writeFileSync(join(work, file), 'version: 1\n');
  for (let i = 0; i < 50; i++) writeFileSync(join(work, `job/letters/${i}.pdf`), '%PDF-1.7\n');
  // A folder named like a job file, a link to a folder, and a link to a job file outside.
  mkdirSync(join(work, 'job/folder.yaml'));
  writeFileSync(join(work, 'job/folder.yaml/l.yaml'), 'version: 1\n');
  symlinkSync(join(work, 'elsewhere'), join(work, 'job/linked'));
  symlinkSync(join(work, 'elsewhere/j.yaml'), join(work, 'job/link.yaml'));
  symlinkSync(join(work, 'missing.yaml'), join(work, 'job/broken.yaml'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a folder's job files", () => {
  it('are those fast-glob finds with its own listing', async () => {
    const { files, unmatched } = await findJobFiles(['job'], work);
    const own = await fg('**/*.{yaml,yml}', {
      cwd: folder,
      absolute: true,
      onlyFiles: true,
      ignore: ['**/node_modules/**'],
    });
    expect(unmatched).toEqual([]);
    expect(files).toEqual([...own].sort());
    expect(files.map((f) => f.slice(folder.length + 1))).toEqual([
      'a.yaml',
      'b.yml',
      'folder.yaml/l.yaml',
      'link.yaml',
      'linked/j.yaml',
      'linked/k.yml',
      'sub/deeper/g.yml',
      'sub/f.yaml',
    ]);
  });
});
