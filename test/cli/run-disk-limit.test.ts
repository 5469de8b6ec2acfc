import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, runCli, type CliResult } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { fanOutJob, readReport, sandboxEnv } from './run-helpers.js';

/**
 * A disk that refuses writes part-way (a full disk, a quota), made on demand
 * with `ulimit -f` in a spawned shell (/bin/sh, dash: blocks of 512 bytes, so
 * `ulimit -f 6` stops every file at 3 KiB): the run must end by itself with
 * exit 1 or 2, a clear SR_OUTPUT_WRITE and every report the disk still took,
 * never spin or hang (issue 14, item 1); a later run without the limit
 * finishes the work, each envelope sent exactly once.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

function runLimited(blocks: number, cwd: string): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...sandboxEnv(sandbox) };
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/bin/sh',
      ['-c', `ulimit -f ${blocks} && exec "$0" "$1" run . --out out`, process.execPath, binPath],
      {
        cwd,
        env,
        stdio: 'pipe',
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A run that hangs is ended here, and the test fails on its signal.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end();
  });
}

describe('signrun run on a disk that refuses writes', () => {
  it('ends with exit 1 and SR_OUTPUT_WRITE at several limits, writes the reports it can, and a re-run completes exactly once', async () => {
    // 20 rows and limits of 6 to 32 blocks (40 rows and 12 to 64 before issue 38): every file a run writes is
    // about half as long, so the same limits halved meet the same files: the journal stops each of the four
    // runs part-way (at 3, 6, 10 and 16 KiB of the 31 the whole job needs), and the reports each run still
    // writes are the same as at 40 rows (none; report.md; junit.xml too; report.html too).
    const rows = 20;
    const dir = await fanOutJob(rows, 'disk-limit');
    const out = path.join(dir, 'out');
    for (const blocks of [6, 12, 20, 32]) {
      const result = await runLimited(blocks, dir);
      expect(result.signal, `ulimit -f ${blocks}: ${result.stderr}`).toBeNull();
      expect([1, 2], `ulimit -f ${blocks}: ${result.stderr}`).toContain(result.code);
      expect(result.stderr).toMatch(/SR_OUTPUT_WRITE .*EFBIG/);
      // The next step is said: run again (the console summary's words, or the state folder's hint).
      expect(result.stderr).toMatch(/run (the same command )?again/);
      // Every report on disk is whole, and the console names exactly those.
      const present = (await readdir(out)).filter((f) => ['report.json', 'report.md', 'junit.xml'].includes(f));
      if (present.includes('report.json')) expect((await readReport(out)).totals.envelopes.total).toBe(rows);
      if (present.includes('report.md')) expect(await readFile(path.join(out, 'report.md'), 'utf8')).toMatch(/# /);
      if (present.includes('junit.xml'))
        expect(await readFile(path.join(out, 'junit.xml'), 'utf8')).toMatch(/<\/testsuites>\s*$/);
      // No temp file is left behind by a refused write.
      const temps: string[] = [];
      const walk = async (d: string): Promise<void> => {
        for (const e of await readdir(d, { withFileTypes: true })) {
          if (e.isDirectory()) await walk(path.join(d, e.name));
          else if (e.name.endsWith('.tmp')) temps.push(path.join(d, e.name));
        }
      };
      await walk(out);
      expect(temps).toEqual([]);
    }

    const final = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(final.code, final.stderr).toBe(0);
    const report = await readReport(out);
    expect(report.totals.envelopes.succeeded).toBe(rows);

    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
    const listed = await (await client.login()).listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
    client.close();
    const perIdentity = new Map<string, number>();
    for (const e of listed.envelopes ?? []) {
      const id = e.customFields?.textCustomFields?.find((f) => f.name === 'signrun')?.value ?? '?';
      perIdentity.set(id, (perIdentity.get(id) ?? 0) + 1);
    }
    expect(perIdentity.size).toBe(rows);
    expect([...perIdentity.values()].every((n) => n === 1)).toBe(true);
  }, 240_000);
});
