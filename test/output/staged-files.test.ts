import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StagedFiles } from '../../src/output/staged-files.js';

// Files written together or not at all (issue 36): what `import` stages.

const temp = () => mkdtemp(path.join(os.tmpdir(), 'signrun-staged-'));

describe('StagedFiles', () => {
  it('puts nothing in place until commit, then every file', async () => {
    const dir = await temp();
    const staged = new StagedFiles();
    const doc = await staged.stream(path.join(dir, 'templates/k/one.pdf'), Readable.from([Buffer.from('%PDF-1')]));
    await staged.file(path.join(dir, 'k.yaml'), 'job: k\n');
    expect(doc.size).toBe(6);
    // Staged: only temp files, no target yet.
    const before = await readdir(dir, { recursive: true });
    expect(before.filter((f) => !f.endsWith('.tmp') && f !== 'templates' && f !== path.join('templates', 'k'))).toEqual(
      [],
    );
    await staged.commit();
    expect((await readdir(dir, { recursive: true })).sort()).toEqual(
      ['k.yaml', 'templates', path.join('templates', 'k'), path.join('templates', 'k', 'one.pdf')].sort(),
    );
    expect(await readFile(path.join(dir, 'k.yaml'), 'utf8')).toBe('job: k\n');
  });

  it('discard removes the temp files and the folders staging made, and nothing that was there before', async () => {
    const dir = await temp();
    await mkdir(path.join(dir, 'brands'));
    await writeFile(path.join(dir, 'k.yaml'), 'earlier\n');
    const staged = new StagedFiles();
    await staged.file(path.join(dir, 'brands/acme/logo.png'), 'png');
    await staged.file(path.join(dir, 'templates/k/one.pdf'), '%PDF-1');
    await staged.file(path.join(dir, 'k.yaml'), 'later\n');
    await staged.discard();
    expect((await readdir(dir, { recursive: true })).sort()).toEqual(['brands', 'k.yaml']);
    expect(await readFile(path.join(dir, 'k.yaml'), 'utf8')).toBe('earlier\n');
  });

  it('a body that breaks while staged leaves no temp file; discard then leaves the folder as it was', async () => {
    const dir = await temp();
    const staged = new StagedFiles();
    await staged.file(path.join(dir, 'templates/k/one.pdf'), '%PDF-1');
    async function* broken() {
      yield Buffer.from('%PDF-');
      throw new Error('connection reset');
    }
    await expect(staged.stream(path.join(dir, 'templates/k/two.pdf'), broken())).rejects.toThrow('connection reset');
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);
  });
});
