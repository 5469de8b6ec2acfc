import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob } from './run-helpers.js';

/** The smaller findings of issue 14 (item 10), through the real CLI. */
describe('smaller hardening', () => {
  it('refuses a root URL that carries a password, without printing it or writing it, before sending anything', async () => {
    const dir = await fanOutJob(1, 'userinfo');
    const result = await runCli(['run', '.', '--out', 'out'], {
      cwd: dir,
      env: {
        DOCUSIGN_ROOT_URL: 'http://me:hunter2-in-url@127.0.0.1:9/restapi/v2',
        DOCUSIGN_USERNAME: 'me',
        DOCUSIGN_PASSWORD: 'x',
        DOCUSIGN_INTEGRATOR_KEY: 'ik',
      },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_CONFIG_ENV_INVALID');
    expect(result.stderr).toContain('DOCUSIGN_PASSWORD');
    expect(result.stdout + result.stderr).not.toContain('hunter2-in-url');
    // Issue 26, CI on every exit: only report.md and junit.xml, naming the cause — and not the password either.
    expect((await readdir(path.join(dir, 'out'))).sort()).toEqual(['junit.xml', 'report.md']);
    for (const report of ['junit.xml', 'report.md']) {
      const text = await readFile(path.join(dir, 'out', report), 'utf8');
      expect(text).toContain('SR_CONFIG_ENV_INVALID');
      expect(text).not.toContain('hunter2-in-url');
    }
  });
});
