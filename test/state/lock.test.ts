import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireStateLock, lockFileName, readStateLock } from '../../src/state/index.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { spawnStateScript, waitForLine, writeStaleLock } from './child.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signrun-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function lockError(promise: Promise<unknown>): Promise<SignrunError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignrunError);
  return error as SignrunError;
}

describe('state lock', () => {
  it('holds pid, host, start time and command, and is released', async () => {
    const { lock, tookOverFrom } = await acquireStateLock(dir, { command: 'signrun run jobs' });
    expect(tookOverFrom).toBeUndefined();
    const holder = await readStateLock(dir);
    expect(holder).toMatchObject({ pid: process.pid, hostname: hostname(), command: 'signrun run jobs' });
    expect(Date.parse(holder!.startedAt)).not.toBeNaN();
    expect((await stat(join(dir, lockFileName))).mode & 0o777).toBe(0o600);
    await lock.release();
    expect(await readStateLock(dir)).toBeUndefined();
    await lock.release(); // twice is harmless
    const again = await acquireStateLock(dir, { command: 'second' });
    await again.lock.release();
  });

  it('refuses a second run while another live process holds the folder, naming it', async () => {
    const lines: string[] = [];
    const child = spawnStateScript(
      `await STATE.acquireStateLock(${JSON.stringify(dir)}, { command: 'signrun run holder' });
       process.stdout.write('locked\\n');
       setInterval(() => {}, 1000);`,
      (l) => lines.push(l),
    );
    try {
      await waitForLine(lines, (l) => l === 'locked', 30_000);
      const error = await lockError(acquireStateLock(dir, { command: 'signrun run second' }));
      expect(error.code).toBe('SR_STATE_LOCKED');
      expect(error.exitCode).toBe(2);
      expect(error.details).toMatchObject({ pid: child.pid, hostname: hostname(), command: 'signrun run holder' });
      // The loser changed nothing: the holder's lock is intact.
      expect((await readStateLock(dir))?.pid).toBe(child.pid);
    } finally {
      child.kill('SIGKILL');
      await child.exited;
    }
  });

  it('lets exactly one of two processes started at once take the lock', async () => {
    const results: string[][] = [[], []];
    // The winner holds the lock until killed, so a slow second start (a loaded
    // machine) still meets it.
    const script = `try {
         await STATE.acquireStateLock(${JSON.stringify(dir)}, { command: 'racer' });
         process.stdout.write('won\\n');
         setInterval(() => {}, 1000);
       } catch (e) { process.stdout.write('lost ' + e.code + '\\n'); process.exit(0); }`;
    const racers = results.map((lines) => spawnStateScript(script, (l) => lines.push(l)));
    try {
      await Promise.all(results.map((lines) => waitForLine(lines, () => true, 30_000)));
      const outcomes = results.map((lines) => lines[0]).sort();
      expect(outcomes).toEqual(['lost SR_STATE_LOCKED', 'won']);
    } finally {
      for (const r of racers) r.kill('SIGKILL');
      await Promise.all(racers.map((r) => r.exited));
    }
  });

  it('takes over a stale lock left by a run killed with SIGKILL, and says whose it was', async () => {
    const lines: string[] = [];
    const child = spawnStateScript(
      `await STATE.acquireStateLock(${JSON.stringify(dir)}, { command: 'signrun run killed' });
       process.stdout.write('locked\\n');
       setInterval(() => {}, 1000);`,
      (l) => lines.push(l),
    );
    await waitForLine(lines, (l) => l === 'locked', 30_000);
    child.kill('SIGKILL');
    await child.exited;
    const { lock, tookOverFrom } = await acquireStateLock(dir, { command: 'signrun run resumed' });
    expect(tookOverFrom).toMatchObject({ pid: child.pid, command: 'signrun run killed' });
    expect((await readStateLock(dir))?.pid).toBe(process.pid);
    await lock.release();
  });

  it('lets exactly one of two processes take over the same stale lock', async () => {
    await writeStaleLock(dir, 'signrun run (killed)');
    const results: string[][] = [[], []];
    const script = `try {
         const { tookOverFrom } = await STATE.acquireStateLock(${JSON.stringify(dir)}, { command: 'taker' });
         process.stdout.write('won ' + (tookOverFrom ? tookOverFrom.token : '-') + '\\n');
         setInterval(() => {}, 1000);
       } catch (e) { process.stdout.write('lost ' + e.code + '\\n'); process.exit(0); }`;
    const takers = results.map((lines) => spawnStateScript(script, (l) => lines.push(l)));
    try {
      await Promise.all(results.map((lines) => waitForLine(lines, () => true, 30_000)));
      const outcomes = results.map((lines) => lines[0]).sort();
      // One took the lock; the other met the winner's live lock. The winner
      // names the stale holder when it was the one that moved the stale file
      // aside; when the loser moved it and the winner found the name free
      // in between, the winner simply created the lock ('-').
      expect(outcomes[0]).toBe('lost SR_STATE_LOCKED');
      expect(outcomes[1]).toMatch(/^won (stale|-)$/);
      const holder = await readStateLock(dir);
      expect(takers.map((t) => t.pid)).toContain(holder?.pid);
    } finally {
      for (const t of takers) t.kill('SIGKILL');
      await Promise.all(takers.map((t) => t.exited));
    }
  });

  it('never takes over a lock from another host (its pid cannot be checked here)', async () => {
    await writeFile(
      join(dir, lockFileName),
      JSON.stringify({
        pid: 999_999,
        hostname: 'ci-runner-7',
        startedAt: '2026-11-20T09:00:00.000Z',
        command: 'signrun run',
        token: 't',
      }),
    );
    const error = await lockError(acquireStateLock(dir, { command: 'here', isAlive: () => false }));
    expect(error.code).toBe('SR_STATE_LOCKED');
    expect(error.details).toMatchObject({ hostname: 'ci-runner-7', pid: 999_999 });
    expect((JSON.parse(await readFile(join(dir, lockFileName), 'utf8')) as { hostname: string }).hostname).toBe(
      'ci-runner-7',
    );
  });

  it('treats a lock file being written right now as held, and an old empty one as stale', async () => {
    await writeFile(join(dir, lockFileName), '');
    expect((await lockError(acquireStateLock(dir, { command: 'x' }))).code).toBe('SR_STATE_LOCKED');
    const { utimes } = await import('node:fs/promises');
    const old = new Date(Date.now() - 60_000);
    await utimes(join(dir, lockFileName), old, old);
    const { lock, tookOverFrom } = await acquireStateLock(dir, { command: 'x' });
    expect(tookOverFrom).toBeDefined();
    await lock.release();
  });
});
