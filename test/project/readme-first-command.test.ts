import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/run-cli.js';

// The README's first command is `npm ci && npx signrun run examples`, in the
// clone itself: npx runs the package's own bin, dist/cli/bin.js, as a
// program — which the build must leave executable (tsc writes it 0644; a
// fresh clone then answered "sh: 1: signrun: Permission denied").
describe('the README’s first command', () => {
  // npx links the clone into its cache (~/.npm/_npx/<hash of the clone's
  // path>) and, linking it, runs its `prepare` script: `npm run build`, a
  // whole tsc build of dist/ (89 of the 92 s npx took, `--timing`, busy
  // machine; 23 s of CPU) while other test files run that dist/. `npm test`
  // has just built it, so scripts are left out (npm_config_ignore_scripts):
  // npx still links the clone and runs its bin, which is what this tests.
  // An npx killed half-way leaves that folder without its package.json, and
  // every later npx from the clone then fails with ENOENT: so a cache of its
  // own, made and removed here, and time enough.
  it('the built bin is executable, and `npx signrun` runs it from the clone', { timeout: 240_000 }, () => {
    expect(statSync(binPath).mode & 0o111).not.toBe(0);
    const cache = mkdtempSync(path.join(os.tmpdir(), 'signrun-npx-cache-'));
    try {
      const npx = spawnSync('npx', ['--no-install', 'signrun', '--version'], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', npm_config_cache: cache, npm_config_ignore_scripts: 'true' },
        timeout: 230_000,
      });
      expect(npx.stderr).not.toContain('Permission denied');
      expect(npx.status, npx.stderr).toBe(0);
      expect(npx.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
