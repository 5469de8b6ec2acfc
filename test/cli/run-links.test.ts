import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { fanOutJob, readReport, sandboxEnv, tempDir } from './run-helpers.js';

/** Links planted in the output folder (issue 14, item 2), as `signrun run` meets them. */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('signrun run and links in the output folder', () => {
  it('refuses a linked state folder or job folder before sending; a deeper link fails only its envelope; nothing is written outside', async () => {
    const dir = await fanOutJob(2, 'linked');
    const out = path.join(dir, 'out');
    const outside = await tempDir('signrun-outside-');
    await mkdir(out);
    // Documents at send, so the run writes into <job>/<key>/documents (on completion, nothing would yet).
    const run = () =>
      runCli(['run', '.', '--out', 'out', '--documents', 'at-send'], { cwd: dir, env: sandboxEnv(sandbox) });

    await symlink(outside, path.join(out, '.signrun'));
    let result = await run();
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_OUTPUT_LINK');
    expect(result.stderr).toContain('.signrun');
    await rm(path.join(out, '.signrun'));

    await symlink(outside, path.join(out, 'linked'));
    result = await run();
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_OUTPUT_LINK');
    await rm(path.join(out, 'linked'));
    expect(await readdir(outside)).toEqual([]);

    await mkdir(path.join(out, 'linked', 'e-E10001'), { recursive: true });
    await symlink(outside, path.join(out, 'linked', 'e-E10001', 'documents'));
    result = await run();
    expect(result.code, result.stderr).toBe(1);
    const report = await readReport(out);
    const byKey = Object.fromEntries(report.envelopes.map((e) => [e.key, e]));
    expect(byKey['e-E10001']?.error?.code).toBe('SR_OUTPUT_LINK');
    expect(byKey['e-E10002']?.outcome).toBe('succeeded');
    expect(await readdir(outside)).toEqual([]);
  });
});
