import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireStateLock, lockFileName, readStateLock, type LockHolder } from '../../src/state/state-lock.js';
import { makeLock, openExclusive, takeOverStale, writeHolder } from '../../src/state/state-lock-steps.js';
import { SignrunError } from '../../src/errors/signrun-error.js';

// Two runs, A and B, both met the same stale lock (a run killed with SIGKILL). The interleaving that lost
// A's lock in a clean-clone run of lock.test.ts (fixed in ba30d2a), replayed step by step so it happens
// every time rather than once in many runs of racing processes: A takes the stale lock over and creates its
// own, empty; before A writes it, B (still acting on the stale holder it read) moves A's new lock aside,
// sees it is not the stale one and puts it back; then A writes. A restored copy of the empty file (pid 0,
// no token) replaced A's lock for good: A's write went to the file moved aside, A could not release it,
// and every later run met it as locked.

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signrun-lock-steps-'));
  path = join(dir, lockFileName);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stale: LockHolder = {
  pid: 999_999,
  hostname: hostname(),
  startedAt: '2026-11-20T09:00:00.000Z',
  command: 'signrun run (killed)',
  token: 'stale',
};

describe('state lock: a stale-lock takeover racing a live lock, step by step', () => {
  it("puts A's live lock back as the same file, so A's write lands in it, A releases it and a later run gets it", async () => {
    await writeFile(path, JSON.stringify(stale));
    // Both runs read the stale holder before either acts on it.
    expect(await readStateLock(dir)).toEqual(stale);

    // A: moves the stale lock aside (it is the stale one: removed), then creates its own, not yet written.
    expect(await takeOverStale(path, stale)).toBe(true);
    const handleA = await openExclusive(path);
    expect(handleA).toBeDefined();
    expect((await readStateLock(dir))?.pid).toBe(0); // held, by a process not yet known

    // B: moves A's new lock aside, finds it is not the stale holder it read, and puts it back.
    expect(await takeOverStale(path, stale)).toBe(false);

    // A: writes its holder into the file it created.
    const holderA: LockHolder = {
      pid: process.pid,
      hostname: hostname(),
      startedAt: new Date().toISOString(),
      command: 'signrun run A',
      token: 'token-of-A',
    };
    await writeHolder(handleA!, holderA);
    expect(await readStateLock(dir)).toEqual(holderA);
    expect((await readdir(dir)).sort()).toEqual([lockFileName]); // nothing left aside

    // B, trying again, is refused and told who holds the folder: A.
    const refused = await acquireStateLock(dir, { command: 'signrun run B', isAlive: () => true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SignrunError);
    expect((refused as SignrunError).code).toBe('SR_STATE_LOCKED');
    expect((refused as SignrunError).details).toMatchObject({ pid: process.pid, command: 'signrun run A' });

    // A finishes and releases; a run after it gets the lock.
    await makeLock(path, holderA).release();
    expect(await readStateLock(dir)).toBeUndefined();
    const later = await acquireStateLock(dir, { command: 'signrun run later' });
    expect(later.tookOverFrom).toBeUndefined();
    expect((await readStateLock(dir))?.command).toBe('signrun run later');
    await later.lock.release();
    expect(await readdir(dir)).toEqual([]);
  });
});
