import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy.js';
import { fanOutJob, sandboxEnv } from './run-helpers.js';
import { Changes } from '../helpers/barrier.js';

/**
 * Issue 25: `signrun sync` against a status listing that pages without end
 * (one new envelope per page, 3,000 announced) stops on SIGTERM before its
 * next page and exits 130, having recorded nothing of the listing. Before,
 * it went on for 3,000 calls and only SIGKILL stopped it.
 */
let sandbox: RunningSandbox;
let proxy: HostileProxy;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  proxy = await startHostileProxy(sandbox.origin);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

describe('signrun sync, SIGTERM during a listing without end', () => {
  it('stops before the next page, exits 130, journals no listing', async () => {
    const dir = await fanOutJob(2, 'sigterm');
    const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl };
    const sent = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env });
    expect(sent.code, sent.stderr).toBe(0);

    proxy.mode = 'endless-pages';
    proxy.listings = 0;
    const child = spawn(process.execPath, [binPath, 'sync', '.', '--out', 'out', '--force'], {
      cwd: dir,
      env: { ...(process.env as Record<string, string>), ...env, NO_COLOR: '1' },
      stdio: 'pipe',
    });
    let stderr = '';
    const changes = new Changes();
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      changes.changed();
    });
    // SIGTERM while the third page is asked; the page is answered once the sync has taken the signal.
    proxy.beforeListing = async (n) => {
      if (n !== 3) return;
      child.kill('SIGTERM');
      await changes.until(() => stderr.includes('SIGTERM'));
    };
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    proxy.beforeListing = undefined;
    expect(code, stderr).toBe(130);
    // The third page was in flight when SIGTERM came: it is finished, no fourth is asked.
    expect(proxy.listings).toBe(3);
    const journal = await readFile(path.join(dir, 'out', '.signrun', 'journal.jsonl'), 'utf8');
    expect(journal.split('\n').filter((l) => l.includes('"kind":"listing"'))).toEqual([]);
  });
});
