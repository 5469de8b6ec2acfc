import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/run-cli.js';

// The README's first command is `npm ci && npx signrun run examples`, in the
// clone itself: npx runs the package's own bin, dist/cli/bin.js, as a
// program — which the build must leave executable (tsc writes it 0644; a
// fresh clone then answered "sh: 1: signrun: Permission denied").
describe('the README’s first command', () => {
  it('the built bin is executable, and `npx signrun` runs it from the clone', () => {
    expect(statSync(binPath).mode & 0o111).not.toBe(0);
    const npx = spawnSync('npx', ['--no-install', 'signrun', '--version'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(npx.stderr).not.toContain('Permission denied');
    expect(npx.status, npx.stderr).toBe(0);
    expect(npx.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
