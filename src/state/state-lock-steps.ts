import { randomUUID } from 'node:crypto';
import { link, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { SignrunError } from '../errors/signrun-error.js';
import { readTextIfPresent } from './text-if-present.js';

// The state lock's steps, each one atomic on its own or a single read; state-lock.ts composes them into
// acquireStateLock. Apart so that a test can replay, step by step, an interleaving of two runs that once
// lost a lock (test/state/lock-race-steps.test.ts), and so that they stay out of the package's API
// (state/index.ts re-exports state-lock.ts only).

/** Who holds a state folder: the content of its lock file. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** When that run started, ISO 8601 UTC. */
  startedAt: string;
  /** The command line of that run, e.g. `signrun run jobs --out out`. */
  command: string;
  /** Random; tells this holder's lock apart from a later one with the same pid. */
  token: string;
}

/** A held lock on a state folder. */
export interface StateLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock file if it is still this run's. Safe to call twice. */
  release(): Promise<void>;
}

/** Creates the lock file with O_EXCL (`wx`) and writes the holder in it; false when it exists. */
export async function createExclusive(path: string, holder: LockHolder): Promise<boolean> {
  const handle = await openExclusive(path);
  if (handle === undefined) return false;
  await writeHolder(handle, holder);
  return true;
}

/**
 * The first half of `createExclusive`: the file, created empty (atomic, O_EXCL), or undefined when it
 * exists. Until `writeHolder` others read it as held by a process not yet known (pid 0).
 */
export async function openExclusive(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw new SignrunError(
      'SR_OUTPUT_WRITE',
      `the lock file ${path} could not be created: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {
        hint: 'Check the permissions of the state folder (--state), or give another one.',
        cause: error,
      },
    );
  }
}

/** The second half: the holder written into the file `openExclusive` created, synced, and the file closed. */
export async function writeHolder(handle: FileHandle, holder: LockHolder): Promise<void> {
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function readHolder(path: string): Promise<LockHolder | undefined> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid === 'number' && typeof v.hostname === 'string') {
      return {
        pid: v.pid,
        hostname: v.hostname,
        startedAt: String(v.startedAt),
        command: String(v.command),
        token: String(v.token),
      };
    }
  } catch {
    // fall through
  }
  // Empty or damaged: the holder died between creating and writing the file
  // (the window is one write). Old enough, it is stale; otherwise give the
  // writer a moment (pid 0: held, by a process not yet known).
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  const stale = Date.now() - info.mtimeMs > 10_000;
  return {
    pid: stale ? -1 : 0,
    hostname: hostname(),
    startedAt: info.mtime.toISOString(),
    command: 'unknown (lock file incomplete)',
    token: '',
  };
}

/**
 * Removes a stale lock without ever removing a live one: the stale file is
 * first renamed to a unique name (atomic; of two runs racing for the
 * takeover only one rename finds the file), then its content is checked to be
 * the stale holder read before. If a live run's lock was moved by mistake (the
 * winner of the race replaced the stale one in between), it is put back and
 * this run reports the winner as the holder.
 */
export async function takeOverStale(path: string, stale: LockHolder): Promise<boolean> {
  const aside = `${path}.stale-${process.pid}-${randomUUID()}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true; // someone else removed it: the name is free
    throw error;
  }
  const moved = await readHolder(aside);
  if (moved !== undefined && moved.token !== stale.token && moved.pid !== -1) {
    // Not the stale lock any more: put the same file back, unless a newer one appeared meanwhile. A hard
    // link, not a copy: a live lock caught between its creation and its first write reads as pid 0, and a
    // copy of that would have replaced its holder's lock for good (found by lock.test.ts's race); the link
    // keeps the inode its holder is still writing.
    await link(aside, path).catch(() => {
      // A third run created a lock in the instant the live one was aside.
      // Residual risk, accepted: it needs a stale lock AND three runs
      // starting within the same few microseconds on one state folder.
    });
    await unlink(aside).catch(() => undefined);
    return false;
  }
  await unlink(aside).catch(() => undefined);
  return true;
}

export function makeLock(path: string, holder: LockHolder): StateLock {
  let released = false;
  return {
    path,
    holder,
    async release() {
      if (released) return;
      released = true;
      const current = await readHolder(path).catch(() => undefined);
      if (current?.token === holder.token) await unlink(path).catch(() => undefined);
    },
  };
}
