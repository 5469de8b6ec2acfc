import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SignrunError } from '../errors/signrun-error.js';
import { processIsAlive } from '../output/process-alive.js';
import {
  createExclusive,
  makeLock,
  readHolder,
  takeOverStale,
  type LockHolder,
  type StateLock,
} from './state-lock-steps.js';

export type { LockHolder, StateLock } from './state-lock-steps.js';

/** Name of the lock file inside the state folder. */
export const lockFileName = 'lock';

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
