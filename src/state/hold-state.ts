import { acquireStateLock, type AcquiredLock } from './state-lock.js';
import { openJournal, type Journal } from './journal.js';
import { bindStateTarget } from './state-target.js';
import { journalProgress, type JournalProgress } from './journal-progress.js';
import { keptPromises, type BrokenPromise } from './promised-outputs.js';

/** A state folder held by one command (run, sync): its lock, its journal open for appending, what earlier runs recorded. */
export interface HeldState {
  journal: Journal;
  /** What earlier runs recorded, less the promises the output folder does not keep (when `outDir` was given). */
  progress: JournalProgress;
  /** Those promises: outputs the journal records that the output folder lacks, to be made again. */
  brokenPromises: BrokenPromise[];
  /** Closes the journal, then gives the lock back. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Something people should know that is not a failure, with a stable `kind`
 * decided here, where it is made: listeners choose by kind, never by wording.
 */
export interface HoldStateWarning {
  /**
   * `killed-run-taken-over`: a killed run's lock was taken over;
   * `journal-repaired`: unreadable journal lines were dropped;
   * `outputs-missing`: outputs the journal promises are not in the output
   * folder (a crash, or removed): their steps are done again.
   */
  kind: 'killed-run-taken-over' | 'journal-repaired' | 'outputs-missing';
  message: string;
}

/** Options of {@link holdState}. */
export interface HoldStateOptions {
  /** Written in the lock for whoever finds it: the command line. */
  command: string;
  /** The service this state folder belongs to (a folder is bound to one). */
  rootUrl: string;
  /** Something people should know that is not a failure: a killed run's lock taken over, a repaired journal. */
  warn: (warning: HoldStateWarning) => void;
  /** The command's clock, for the journal's `at` and the folder's binding date. Default `Date.now`. */
  now?: () => number;
  /**
   * The output folder whose files the journal promises (signing.json,
   * downloads): a promise it does not keep is taken out of `progress`, so
   * that the step is done again (promised-outputs.ts). Absent: the journal
   * is taken as it is.
   */
  outDir?: string;
  /**
   * A lock on this folder the caller already holds (`run` holds one across
   * its sync and its sending, so that no other command takes the folder in
   * between): used as it is, and left to the caller to give back.
   */
  heldLock?: AcquiredLock;
}

/**
 * Takes a state folder for one command, the same way for `run` and `sync`:
 * the lock first, before any network call (a second command on the same
 * folder ends there, SR_STATE_LOCKED), then the folder is bound to the
 * service, then the journal is read and opened for appending. A killed run's
 * lock taken over and a journal with unreadable lines are said through
 * `warn`. When a step fails, what was taken is given back.
 */
export async function holdState(stateDir: string, options: HoldStateOptions): Promise<HeldState> {
  const { lock, tookOverFrom } = options.heldLock ?? (await acquireStateLock(stateDir, { command: options.command }));
  const release = options.heldLock ? async () => undefined : () => lock.release();
  try {
    if (tookOverFrom) {
      options.warn({
        kind: 'killed-run-taken-over',
        message: `the run started at ${tookOverFrom.startedAt} (pid ${tookOverFrom.pid}, ${tookOverFrom.command}) was killed; continuing where it stopped`,
      });
    }
    const now = options.now ?? Date.now;
    await bindStateTarget(stateDir, options.rootUrl, new Date(now()));
    const opened = await openJournal(stateDir, { now });
    const { previous } = opened;
    if (previous.skipped.length > 0 || opened.repairedBytes > 0) {
      options.warn({
        kind: 'journal-repaired',
        message: `the journal ${previous.path} had ${previous.skipped.length} unreadable line(s) (a crash mid-write); their steps are redone`,
      });
    }
    let progress = journalProgress(previous.records);
    let brokenPromises: BrokenPromise[] = [];
    if (options.outDir !== undefined) {
      const kept = await keptPromises(progress, options.outDir);
      progress = kept.progress;
      brokenPromises = kept.broken;
      if (kept.broken.length > 0) {
        const envelopes = new Set(kept.broken.map((b) => b.id)).size;
        options.warn({
          kind: 'outputs-missing',
          message: `${kept.broken.length} output(s) of ${envelopes} envelope(s) recorded in the journal are not in the output folder (first: ${kept.broken[0]!.path}); they are made again`,
        });
      }
    }
    let closed: Promise<void> | undefined;
    return {
      journal: opened.journal,
      progress,
      brokenPromises,
      close() {
        closed ??= opened.journal.close().finally(release);
        return closed;
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
