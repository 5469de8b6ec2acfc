import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

/**
 * Every folder of test/fixtures/jobs/invalid is one kind of invalid job file;
 * its expect.json names the code and the exact place (file, line, column)
 * that `signrun validate --format json` must report. The fixtures are copied
 * to test/.tmp first so that the few kinds the repository cannot hold (a
 * symbolic link leading out, a 5 MiB file) are made there.
 */
const fixtures = join(repoRoot, 'test/fixtures/jobs/invalid');
const work = join(repoRoot, `test/.tmp/validate-invalid-${process.pid}`);
const kinds = readdirSync(fixtures).sort();
const samplePdf = join(repoRoot, 'examples/docs/offer-letter.pdf'); // two A4 pages

interface Expected {
  code: string;
  file: string;
  line: number;
  column: number;
}

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(fixtures, work, { recursive: true });
  writeFileSync(join(work, 'outside.pdf'), readFileSync(samplePdf));
  for (const kind of kinds) {
    mkdirSync(join(work, kind, 'docs'), { recursive: true });
    writeFileSync(join(work, kind, 'docs/two-pages.pdf'), readFileSync(samplePdf));
  }
  symlinkSync(join(work, 'outside.pdf'), join(work, 'doc-symlink-outside/docs/link.pdf'));
  writeFileSync(
    join(work, 'file-too-large/job.yaml'),
    `version: 1\njob: huge\ndescription: "${'x'.repeat(5 * 1024 * 1024)}"\n`,
  );
});

// Per process: another engineer's `npm test` may run this file at the same time in the same tree.
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('signrun validate on invalid job files', () => {
  it('has at least 30 kinds of invalid job files', () => {
    expect(kinds.length).toBeGreaterThanOrEqual(30);
    expect(
      new Set(kinds.map((k) => (JSON.parse(readFileSync(join(fixtures, k, 'expect.json'), 'utf8')) as Expected).code))
        .size,
    ).toBeGreaterThanOrEqual(30);
  });

  it.concurrent.each(kinds)('%s: exit 2 with the code at the exact line and column', async (kind) => {
    const expected = JSON.parse(readFileSync(join(fixtures, kind, 'expect.json'), 'utf8')) as Expected;
    const folder = join(work, kind);
    expect(existsSync(folder)).toBe(true);
    const result = await runCli(['validate', '.', '--format', 'json'], { cwd: folder });
    expect(result.code, result.stderr).toBe(2);
    const output = JSON.parse(result.stdout) as { ok: boolean; diagnostics: Array<Expected & { severity: string }> };
    expect(output.ok).toBe(false);
    const errors = output.diagnostics.filter((d) => d.severity === 'error');
    const found = errors.find((d) => d.code === expected.code && d.file === expected.file);
    expect(found, JSON.stringify(errors, null, 1)).toBeDefined();
    expect({ line: found!.line, column: found!.column }).toEqual({ line: expected.line, column: expected.column });
    expect(result.stderr).toBe('');
  });

  it('never repeats a literal password, in any format', async () => {
    for (const format of ['text', 'json', 'github']) {
      const result = await runCli(['validate', '.', '--format', format], { cwd: join(work, 'password-literal') });
      expect(result.code).toBe(2);
      expect(result.stdout).toContain('SR_PASSWORD_LITERAL');
      expect(result.stdout + result.stderr).not.toContain('hunter2-secret');
    }
  });
});
