import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe } from './helpers/serve-process.js';

describe('signrun serve --data DIR in a git repository', () => {
  it('keeps the data folder (the CA key and its password file included) out of git status', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'signrun-user-repo-'));
    execFileSync('git', ['init', '-q', repo]);
    const data = join(repo, '.sandbox');
    const serve = await spawnServe(['--data', data]);
    try {
      expect(existsSync(join(data, 'ca'))).toBe(true);
      expect(readdirSync(data).length).toBeGreaterThan(1);
      const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
        cwd: repo,
        encoding: 'utf8',
      });
      expect(status).toBe('');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
