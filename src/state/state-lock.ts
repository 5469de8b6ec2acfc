import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SignrunError } from '../errors/signrun-error.js';
import { processIsAlive } from '../output/process-alive.js';

/** Name of the lock file inside the state folder. */
export const lockFileName = 'lock';

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

/** What `acquireStateLock` returns. */
export interface AcquiredLock {
  lock: StateLock;
  /**
   * Set when a stale lock (its pid no longer alive on this host) was taken
   * over: the caller should warn that the earlier run was killed and that its
   * unfinished steps will be resumed.
   */
  tookOverFrom?: LockHolder;
}

/** Options of `acquireStateLock`. */
export interface AcquireLockOptions {
  /** Written in the lock for whoever finds it; e.g. the command line. */
  command: string;
  /** Whether a process is alive on this host; default `process.kill(pid, 0)`. Injectable for tests. */
  isAlive?: (pid: number) => boolean;
}

/**
 * Takes the exclusive lock on a state folder: one run per folder, so two runs
 * of the same jobs can never both create an envelope. The lock file is
 * created with O_EXCL (`wx`), which the kernel makes atomic. When it exists:
 * - held by a live process, or by another host (whose processes cannot be
 *   checked from here): SR_STATE_LOCKED, naming pid, host, start time and
 *   command;
 * - held by a pid that no longer exists on this host (a run killed with
 *   SIGKILL, a power cut): stale; taken over, and reported in `tookOverFrom`.
 */
export async function acquireStateLock(stateDir: string, options: AcquireLockOptions): Promise<AcquiredLock> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const path = join(stateDir, lockFileName);
  const isAlive = options.isAlive ?? processIsAlive;
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command,
    token: randomUUID(),
  };
  // Two rounds: the second follows a stale-lock takeover, which frees the name.
  for (let round = 0; round < 3; round++) {
    if (await createExclusive(path, holder)) return { lock: makeLock(path, holder) };
    const current = await readHolder(path);
    if (current === undefined) continue; // released (or half-written and removed) in between: try again
    if (
      current.pid === 0 ||
      current.hostname !== holder.hostname ||
      isAlive(current.pid) ||
      current.pid === process.pid
    ) {
      throw lockedError(path, current);
    }
    if (await takeOverStale(path, current)) {
      if (await createExclusive(path, holder)) return { lock: makeLock(path, holder), tookOverFrom: current };
    }
  }
  const current = await readHolder(path);
  throw lockedError(
    path,
    current ?? { pid: 0, hostname: 'unknown', startedAt: 'unknown', command: 'unknown', token: '' },
  );
}

/** Reads who holds the lock of a state folder; undefined when it is free. For `plan` and messages. */
export async function readStateLock(stateDir: string): Promise<LockHolder | undefined> {
  return readHolder(join(stateDir, lockFileName));
}

async function createExclusive(path: string, holder: LockHolder): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new SignrunError(
      'SR_OUTPUT_WRITE',
      `the lock file ${path} could not be created: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {
        hint: 'Check the permissions of the state folder (--state), or give another one.',
        cause: error,
      },
    );
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
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
async function takeOverStale(path: string, stale: LockHolder): Promise<boolean> {
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

function makeLock(path: string, holder: LockHolder): StateLock {
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

function lockedError(path: string, holder: LockHolder): SignrunError {
  const sameHost = holder.hostname === hostname();
  return new SignrunError(
    'SR_STATE_LOCKED',
    `the state folder is in use by another run: pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt} (${holder.command})`,
    {
      hint: sameHost
        ? `Wait for that run to finish (or stop it), then run again; nothing was sent by this one. Lock file: ${path}`
        : `That run is on another machine: wait for it to finish, or if it is certainly dead delete ${path}; nothing was sent by this one.`,
      details: {
        lockFile: path,
        pid: holder.pid,
        hostname: holder.hostname,
        startedAt: holder.startedAt,
        command: holder.command,
      },
    },
  );
}
