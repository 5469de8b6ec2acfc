import { shownUrl } from '../secret.js';
import { randomUUID } from 'node:crypto';
import type { ResolvedJob } from '../jobs/model.js';
import { EsignatureClient } from '../client/esignature-client.js';
import type { Auth } from '../client/auth.js';
import type { RetryPolicy } from '../client/retry-policy.js';
import { realTiming, type Timing } from '../client/timing.js';
import { OutputFolder } from '../output/output-folder.js';
import type { ResultSpool } from '../output/result-spool.js';
import { holdState, type HeldState } from '../state/hold-state.js';
import type { AcquiredLock } from '../state/state-lock.js';
import type { RunEvent, RunEventListener } from './run-events.js';
import {
  spooledCollector,
  type EnvelopeResult,
  type RunSummary,
  type SummaryCommand,
  type RunTarget,
  type SummaryCollector,
} from './run-summary.js';

/**
 * The options every command that works on the service takes (`run`,
 * `sync`): declared here once, and handled once by {@link commandRun}, so
 * that the commands cannot drift apart on them.
 */
export interface CommandRunOptions {
  jobs: ResolvedJob[];
  /** The service and how to log in. */
  target: RunTarget & { auth: Auth };
  /** Output folder. */
  outDir: string;
  /**
   * Items in progress at once, and API requests in flight at once (the
   * connection pool's size). Default 8.
   */
  concurrency?: number;
  /** Aborting it starts nothing new; work in flight finishes; the summary says `interrupted`. */
  signal?: AbortSignal;
  /** Every event of the command (progress display). */
  onEvent?: RunEventListener;
  /** Client tuning (tests). */
  retryPolicy?: RetryPolicy;
  /**
   * The clock (tests give the sandbox's, so nothing waits for real time):
   * the client's delays and rate-limit windows, and every time the command
   * reads or records — the summary's start and end, the journal's `at`,
   * envelope.json, the plan's and the polling rule's "now". Default the real one.
   */
  timing?: Timing;
  /** Default a new UUID. */
  runId?: string;
  /**
   * State folder (`--state`, default `<out>/.signrun` from the CLI): one
   * command per folder (a lock), and a journal where each step is recorded
   * (for `run`, each envelope's creation before and after the call,
   * docs/exactly-once.md, so a re-run or a run after a crash adopts instead
   * of sending again). `sync` requires it; a run without it takes no lock
   * and keeps no journal (envelope.json adoption and the service lookup
   * still apply).
   */
  stateDir?: string;
  /** Written in the lock it takes (none with `stateLock`) for whoever finds it. Default the command's name (`signrun run`, `signrun sync`). */
  command?: string;
  /** A lock on `stateDir` the caller already holds and gives back itself: `holdState`'s `heldLock`. */
  stateLock?: AcquiredLock;
}

/** The state folder as a command's body sees it: held when the command's options require a state folder. */
export type StateOf<O extends CommandRunOptions> = O extends { stateDir: string } ? HeldState : HeldState | undefined;

/** What {@link commandRun} gives the command's own work. */
export interface CommandRun<O extends CommandRunOptions> {
  runId: string;
  startedAt: Date;
  /** The clock, as dates. */
  now: () => Date;
  concurrency: number;
  out: OutputFolder;
  client: EsignatureClient;
  collector: SummaryCollector;
  spool: ResultSpool<EnvelopeResult>;
  state: StateOf<O>;
  /** Every event goes through here: the `observe` hook first, then the summary, then `onEvent`. */
  emit: (event: RunEvent) => void;
  /** True once the signal was aborted. */
  interrupted: () => boolean;
  /** Says the command ended (`run:end`) and gives the summary; the body returns it, with what it adds. */
  finish: () => Promise<RunSummary>;
}

/** What differs between the commands in the frame itself. */
export interface CommandShape {
  /** Which command this is: its reports say so. */
  report: SummaryCommand;
  /** Written in the lock when the options give no `command`. */
  command: string;
  /** How many envelopes and accounts the jobs hold (the spool's size, `run:start`). */
  envelopes: number;
  accounts: number;
  /** Sees every event before the summary does (run's call budget counts requests). */
  observe?: (event: RunEvent) => void;
}

/**
 * The frame of a command on the service, the same for `run` and `sync`:
 * start the summary (its results spooled to disk), create the client over
 * one connection pool, take the state folder (before any network call: a
 * second command on the same folder ends there), say `run:start`, do the
 * command's `work`, and give back, whatever happens, the client's
 * connections, the state folder and — unless the summary was handed over —
 * the spool. The caller closes a summary it was given once its reports are
 * written.
 */
export async function commandRun<O extends CommandRunOptions, S extends RunSummary>(
  options: O,
  shape: CommandShape,
  work: (run: CommandRun<O>) => Promise<S>,
): Promise<S> {
  const timing = options.timing ?? realTiming;
  const now = () => new Date(timing.now());
  const concurrency = options.concurrency ?? 8;
  const startedAt = now();
  const runId = options.runId ?? randomUUID();
  const out = new OutputFolder(options.outDir);
  // What the summary, the events and every report show of the service: never a credential of its address.
  const target = { rootUrl: shownUrl(options.target.rootUrl), sandbox: options.target.sandbox };
  // Results wait for the reports on disk, not in memory; the file leaves the folder at once (result-spool.ts).
  const { spool, collector } = await spooledCollector(
    { runId, command: shape.report, target, startedAt: startedAt.toISOString(), concurrency, outDir: out.root },
    shape.envelopes,
  );
  const emit = (event: RunEvent) => {
    shape.observe?.(event);
    collector.listener(event);
    options.onEvent?.(event);
  };
  const interrupted = () => options.signal?.aborted === true;
  const client = EsignatureClient.create({
    rootUrl: options.target.rootUrl,
    auth: options.target.auth,
    // --concurrency bounds the requests in flight: one request per
    // keep-alive connection, at most N connections (the client's slots hold
    // the rest, by priority). An item's independent calls (signing views,
    // downloads) then overlap without ever putting more than N requests on
    // the service at once.
    maxSockets: concurrency,
    onEvent: (event) => emit(event),
    ...(options.retryPolicy ? { retryPolicy: options.retryPolicy } : {}),
    ...(options.timing ? { timing: options.timing } : {}),
  });

  let state: HeldState | undefined;
  /** Set once the summary (and with it the spool) is handed to the caller. */
  let handedOver = false;
  try {
    if (options.stateDir) {
      // Before any network call: a second command on the same state ends here (SR_STATE_LOCKED, exit 2).
      state = await holdState(options.stateDir, {
        command: options.command ?? shape.command,
        rootUrl: options.target.rootUrl,
        warn: (warning) => emit({ type: 'warning', ...warning }),
        now: () => timing.now(),
        // What the journal promises is checked against the output folder: a missing output is made again.
        outDir: out.root,
        ...(options.stateLock ? { heldLock: options.stateLock } : {}),
      });
    }
    emit({
      type: 'run:start',
      runId,
      target,
      startedAt: startedAt.toISOString(),
      envelopes: shape.envelopes,
      accounts: shape.accounts,
    });
    const summary = await work({
      runId,
      startedAt,
      now,
      concurrency,
      out,
      client,
      collector,
      spool,
      // Held exactly when the options name a state folder, which is what StateOf<O> says.
      state: state as StateOf<O>,
      emit,
      interrupted,
      finish: async () => {
        emit({ type: 'run:end', endedAt: now().toISOString(), interrupted: interrupted() });
        return collector.summary();
      },
    });
    handedOver = true;
    return summary;
  } finally {
    client.close();
    await state?.close();
    if (!handedOver) await spool.close();
  }
}
