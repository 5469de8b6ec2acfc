import path from 'node:path';
import type { SigningUrls } from '../../config/types.js';
import { shownUrl } from '../../secret.js';
import pc from 'picocolors';
import type { CommandHandler } from '../command.js';
import { useColour } from '../io.js';
import { preparedOrDiagnostics, printDiagnostics, preflightDiagnostics } from '../prepared-or-diagnostics.js';
import { ExitCode, type ExitCodeValue } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { resolveTarget } from '../../runner/target.js';
// The run's own modules, not the runner's index: that one also brings the importers (import-account, import-template).
import { runJobs, PreflightError } from '../../runner/run.js';
import type { DocumentsWhen } from '../../runner/plan-types.js';
import { bulkSendGroups, bulkSendProblems } from '../../runner/bulk-send/bulk-send-fit.js';
import { exitCodeOf } from '../../runner/run-summary.js';
import { OutputFolder } from '../../output/output-folder.js';
import { reportFiles } from '../../output/output-paths.js';
import type { PlannedItem } from '../../reporters/stopped-report.js';
import { createProgress } from '../../reporters/progress.js';
import { parseShard } from '../../state/shard.js';
import { acquireStateLock, type AcquiredLock } from '../../state/state-lock.js';
import { annotateFailures, appendReportToStepSummary } from '../github-actions.js';
import { sync } from '../../sync/sync.js';
import { shownPath } from '../shown-path.js';

/**
 * `signrun run <paths...> [--out DIR] [--concurrency N] [--shard K/N]`:
 * validate (exit 2, nothing sent), resolve the target (start the sandbox
 * in-process when no root URL is configured, and say so first), run, write
 * the reports, print the summary. Exit 0 / 1 / 2 / 130 (DESIGN.md).
 */
const runCommand: CommandHandler = async ({ args, options, io, signal }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const shard = typeof options['shard'] === 'string' ? parseShard(options['shard']) : undefined;
  const prepared = await preparedOrDiagnostics(io, patterns, {
    ...(shard ? { shard } : {}),
    // Each forEach row's envelope is kept as its row until it is sent (jobs/row-envelope.ts, issue 37);
    // not with --bulk-send, whose copies are compared with their model and sent as lists of values.
    streamRows: options['bulkSend'] !== true,
    nothingDone: (errors) =>
      `Nothing was sent: fix the ${errors} error(s) above, then run again (\`npx signrun validate\` checks offline).\n`,
    printWarnings: true,
    summaryTitle: 'signrun run',
    reports: { out: options['out'] as string | undefined },
    signal,
  });
  if (!prepared) return ExitCode.invalid;
  const { config, jobs } = prepared;
  // Bulk Send's rows must be copies of one model: refused here, before the service is even chosen.
  const bulkSend = options['bulkSend'] === true;
  const unfit = bulkSendProblems(
    bulkSendGroups(
      jobs.flatMap((j) => j.envelopes),
      bulkSend,
    ),
  );
  if (unfit.length > 0) {
    printDiagnostics(io, preflightDiagnostics(unfit, io.cwd));
    io.stderr.write('Nothing was sent.\n');
    return ExitCode.invalid;
  }
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? config.outDir);
  const concurrency = (options['concurrency'] as number | undefined) ?? config.concurrency;
  const out = new OutputFolder(outDir);
  const run: RunSession = {
    io,
    options,
    signal,
    jobs,
    outDir,
    out,
    concurrency,
    sending: false,
    // What the run is to do, kept for a report should it stop before sending
    // anything (the run lets go of the jobs' envelopes once it starts).
    planned: plannedItems(jobs),
    reportStopped: stoppedReporter(io, outDir, out, concurrency, () => run),
  };

  // The sandbox (fastify, SQLite, PDF tooling) is loaded only when it is the target.
  let target: Target;
  try {
    target = await resolveTarget(config, async (sandboxOptions) =>
      (await import('../../sandbox/index.js')).startSandbox(sandboxOptions),
    );
  } catch (error) {
    await run.reportStopped(error, config.rootUrl ?? '', false, 'configuration');
    throw error;
  }
  let stateLock: AcquiredLock | undefined;
  try {
    sayTarget(io, target);
    // The state folder (lock + journal) belongs to a lasting service; an
    // in-process sandbox dies with the run, and its journal would point at nothing.
    const stateDir = target.sandbox
      ? undefined
      : path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
    stateLock = await takeStateFolder(run, target, stateDir, patterns);
    // Said once the state folder is this run's: a run refused by the lock never says it is running.
    const envelopes = jobs.reduce((n, j) => n + j.envelopes.length, 0);
    const accounts = jobs.reduce((n, j) => n + j.accounts.length, 0);
    io.stdout.write(
      `Running ${envelopes} envelope(s) and ${accounts} account(s) from ${jobs.length} job(s), ${concurrency} at a time${shard ? ` (shard ${shard.index}/${shard.count})` : ''}; outputs in ${shownPath(io.cwd, outDir)}/\n`,
    );
    if (stateDir) await syncFirst(run, target, stateDir, stateLock);
    const summary = await runTheJobs(run, target, {
      bulkSend,
      signingUrls: (options['signingUrls'] as SigningUrls | undefined) ?? config.signingUrls,
      ...(stateDir && stateLock ? { stateDir, stateLock } : {}),
    });
    if (typeof summary === 'number') return summary;
    try {
      return await reportTheRun(run, summary);
    } finally {
      await summary.close();
    }
  } finally {
    await stateLock?.lock.release();
    await target.close();
  }
};
export default runCommand;

/**
 * The report writers are needed when the run ends, not before its first
 * request: with the HTML report's chart (d3) they are some forty modules,
 * loaded once the first envelope has started (while it waits on the
 * service), or by the first report that needs them. One load per process.
 */
let reportWriters: Promise<ReportWriters> | undefined;
type ReportWriters = Awaited<ReturnType<typeof importReportWriters>>;
async function importReportWriters() {
  const [written, json, summary, stopped] = await Promise.all([
    import('../../reporters/write-reports.js'),
    import('../../reporters/report-json.js'),
    import('../../reporters/console-summary.js'),
    import('../../reporters/stopped-report.js'),
  ]);
  return {
    writeReports: written.writeReports,
    previewDirsOf: written.previewDirsOf,
    reportOf: json.reportOf,
    consoleSummary: summary.consoleSummary,
    stoppedReport: stopped.stoppedReport,
  };
}
function loadReportWriters(): Promise<ReportWriters> {
  reportWriters ??= importReportWriters();
  return reportWriters;
}

type Target = Awaited<ReturnType<typeof resolveTarget>>;
type RunSummary = Awaited<ReturnType<typeof runJobs>>;
type Jobs = NonNullable<Awaited<ReturnType<typeof preparedOrDiagnostics>>>['jobs'];
type StopReporter = (error: unknown, rootUrl: string, sandbox: boolean, step: string) => Promise<void>;

/** One `signrun run`: what it was asked, where it writes, and whether anything was started yet. */
interface RunSession {
  io: Parameters<CommandHandler>[0]['io'];
  options: Parameters<CommandHandler>[0]['options'];
  signal: Parameters<CommandHandler>[0]['signal'];
  jobs: Jobs;
  outDir: string;
  out: OutputFolder;
  concurrency: number;
  /** An envelope or an account was started: from then on the run's own reports say what happened. */
  sending: boolean;
  /**
   * What the run is to do, until it starts sending (then the run's own
   * reports say it, and the list is let go): made only for such a report,
   * not an item and a place per row for every run.
   */
  planned: () => PlannedItem[];
  /** Reports saying why, when the run stopped before any envelope or account was started; then the error goes on. */
  reportStopped: StopReporter;
}

/** What the run is to do, for a report should it stop before sending anything (the jobs as loaded: the run empties them). */
function plannedItems(loaded: Jobs): () => PlannedItem[] {
  const jobs = loaded.map((j) => ({ envelopes: [...j.envelopes], accounts: j.accounts }));
  return () => plannedItemsOf(jobs);
}

function plannedItemsOf(jobs: Array<Pick<Jobs[number], 'envelopes' | 'accounts'>>): PlannedItem[] {
  return jobs.flatMap((j) => [
    ...j.envelopes.map((e) => ({
      kind: 'envelope' as const,
      job: e.job,
      key: e.key,
      source: e.source,
      ...(e.row !== undefined ? { row: e.row } : {}),
      ...(e.rowSource !== undefined ? { rowSource: e.rowSource } : {}),
    })),
    ...j.accounts.map((a) => ({ kind: 'account' as const, job: a.job, key: a.key, source: a.source, state: a.state })),
  ]);
}

function stoppedReporter(
  io: RunSession['io'],
  outDir: string,
  out: OutputFolder,
  concurrency: number,
  session: () => Pick<RunSession, 'sending' | 'planned'>,
): StopReporter {
  const startedAt = new Date();
  return async (error, rootUrl, sandbox, step) => {
    // Another run holds the state: its reports are not ours to overwrite.
    const { sending, planned } = session();
    if (sending || (error instanceof SignrunError && error.code === 'SR_STATE_LOCKED')) return;
    const code = error instanceof SignrunError ? error.code : 'SR_INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    try {
      const { stoppedReport, writeReports, previewDirsOf } = await loadReportWriters();
      const report = stoppedReport({
        target: { rootUrl, sandbox },
        startedAt,
        concurrency,
        items: planned(),
        error: {
          code,
          message:
            error instanceof PreflightError
              ? `${error.problems.length} problem(s) with templates or brands: ${error.problems.map((p) => p.message).join('; ')}`
              : message,
          step: error instanceof PreflightError ? 'check templates and brands' : step,
        },
      });
      await writeReports(out, report, { previewDirs: previewDirsOf(io.cwd, outDir) });
      io.stderr.write(`Reports saying why are in ${shownPath(io.cwd, outDir)}/ (${reportFiles.join(', ')}).\n`);
      await appendReportToStepSummary(io, path.join(outDir, 'report.md'));
    } catch {
      // The error that stopped the run is the one to show.
    }
  };
}

function sayTarget(io: RunSession['io'], target: Target): void {
  if (target.sandbox) {
    io.stdout.write(
      `Started the signrun sandbox in-process at ${shownUrl(target.rootUrl)} (no DOCUSIGN_ROOT_URL configured); it stops when this run ends.\n`,
    );
  } else {
    io.stdout.write(`Target: ${shownUrl(target.rootUrl)}\n`);
  }
  for (const warning of target.warnings) io.stderr.write(`warning: ${warning}\n`);
}

/** Refuses links planted where the run writes, then takes the state folder's lock (none for an in-process sandbox). */
async function takeStateFolder(
  run: RunSession,
  target: Target,
  stateDir: string | undefined,
  patterns: string[],
): Promise<AcquiredLock | undefined> {
  const { out, outDir, options, jobs } = run;
  // Inside the output folder, its files are written by the state module: a
  // link planted there is refused here, before anything is sent.
  if (stateDir) await out.refuseLinksIn(stateDir);
  // So are links at the jobs' folders and at their envelopes' folders, before
  // anything is sent; deeper ones are refused by the writer as it goes.
  for (const job of new Set(jobs.map((j) => j.job))) await out.refuseLinksIn(path.join(outDir, job));
  if (!stateDir) return undefined;
  const command = [
    'signrun',
    'run',
    ...patterns,
    ...(typeof options['out'] === 'string' ? ['--out', options['out']] : []),
  ].join(' ');
  // One lock from the sync to the last envelope: taken twice (the sync's,
  // then the sending's), a second run on the same folder could slip in
  // between and refuse this one after it had said it was running.
  try {
    return await acquireStateLock(stateDir, { command });
  } catch (error) {
    await run.reportStopped(error, target.rootUrl, target.sandbox, 'sync');
    throw error;
  }
}

/**
 * run converges (issue 12): what was sent is synced first — one status
 * listing, within DocuSign's polling rule — so settled envelopes ask for
 * nothing and completed ones are collected, and cron needs one command.
 */
async function syncFirst(
  run: RunSession,
  target: Target,
  stateDir: string,
  stateLock: AcquiredLock | undefined,
): Promise<void> {
  const { io } = run;
  let synced;
  try {
    synced = await sync({
      jobs: run.jobs,
      target: { rootUrl: target.rootUrl, sandbox: target.sandbox, auth: target.auth },
      outDir: run.outDir,
      stateDir,
      signal: run.signal,
      // The run's lock, held from here to its last envelope.
      stateLock,
      // Declared voids (status: voided) and, when asked, replacement of drifted envelopes.
      act: { replaceDrifted: run.options['replaceDrifted'] === true },
      // Nothing reports this sync's summary: envelopes never sent need no result in it.
      sentOnly: true,
      ...(io.timing ? { timing: io.timing } : {}),
      onEvent: (event) => {
        if (event.type === 'warning' && event.kind !== 'listing-too-recent')
          io.stderr.write(`warning: ${event.message}\n`);
      },
    });
  } catch (error) {
    // A sync that could not finish (the state folder refused a write, the
    // service refused the listing) stops the run before anything is sent:
    // the reports still say why.
    await run.reportStopped(error, target.rootUrl, target.sandbox, 'sync');
    throw error;
  }
  await synced.close();
}

/** Runs the jobs with progress on stderr; a preflight refusal is printed and gives exit 2 (its number). */
async function runTheJobs(
  run: RunSession,
  target: Target,
  given: { bulkSend: boolean; signingUrls: SigningUrls | undefined; stateDir?: string; stateLock?: AcquiredLock },
): Promise<RunSummary | ExitCodeValue> {
  const { io, options } = run;
  const { bulkSend, signingUrls, stateDir, stateLock } = given;
  const progress = createProgress({ stream: io.stderr });
  try {
    const summary = await runJobs({
      jobs: run.jobs,
      target: { rootUrl: target.rootUrl, sandbox: target.sandbox, auth: target.auth },
      outDir: run.outDir,
      concurrency: run.concurrency,
      signal: run.signal,
      // Nothing here reads the jobs again: the run lets each envelope go once started.
      releaseEnvelopes: true,
      ...(typeof options['documents'] === 'string' ? { documents: options['documents'] as DocumentsWhen } : {}),
      ...(typeof options['maxCallsPerHour'] === 'number' ? { maxCallsPerHour: options['maxCallsPerHour'] } : {}),
      ...(options['spreadOverHours'] === true ? { spreadOverHours: true } : {}),
      // The run's clock: the real one, unless the caller gave its own (a test's, moved with its sandbox's).
      ...(io.timing ? { timing: io.timing } : {}),
      ...(signingUrls ? { signingUrls } : {}),
      ...(bulkSend ? { bulkSend } : {}),
      ...(typeof options['bulkListSize'] === 'number' ? { bulkListSize: options['bulkListSize'] } : {}),
      onEvent: (event) => {
        if ((event.type === 'envelope:start' || event.type === 'account:start') && !run.sending) {
          run.sending = true;
          // From here on nothing reads it: one item a row, held to the end of the run before.
          run.planned = () => [];
          // Loaded while the first envelopes wait on the service; a failure is thrown where they are used.
          loadReportWriters().catch(() => undefined);
        }
        if (event.type === 'warning') io.stderr.write(`warning: ${event.message}\n`);
        if (event.type === 'budget:wait') io.stdout.write(budgetWaitLine(event));
        progress.onEvent(event);
      },
      // The lock is this command's: a killed run's takeover was said by the sync.
      ...(stateDir && stateLock ? { stateDir, stateLock: { lock: stateLock.lock } } : {}),
      ...(target.distributor ? { distributor: target.distributor } : {}),
      ...(target.integratorKey ? { integratorKey: target.integratorKey } : {}),
      ...(target.adminBase ? { adminBase: target.adminBase } : {}),
    });
    progress.finish();
    return summary;
  } catch (error) {
    progress.finish();
    await run.reportStopped(error, target.rootUrl, target.sandbox, 'login');
    if (error instanceof PreflightError) {
      printDiagnostics(io, preflightDiagnostics(error.problems, io.cwd));
      io.stderr.write('Nothing was sent.\n');
      return ExitCode.invalid;
    }
    throw error;
  }
}

/** Writes the reports (every one the disk takes), prints the summary; the exit code, or the output error. */
async function reportTheRun(run: RunSession, summary: RunSummary): Promise<ExitCodeValue> {
  const { io, outDir } = run;
  const { reportOf, writeReports, previewDirsOf, consoleSummary } = await loadReportWriters();
  const report = reportOf(summary, io.cwd);
  // A disk that refused the run's outputs may still take some reports:
  // every one it takes is written, then the run ends with the error.
  let reportFailure: SignrunError | undefined;
  try {
    await writeReports(run.out, report, { previewDirs: previewDirsOf(io.cwd, outDir) });
  } catch (error) {
    if (!(error instanceof SignrunError) || error.code !== 'SR_OUTPUT_WRITE') throw error;
    reportFailure = error;
  }
  await appendReportToStepSummary(io, path.join(outDir, 'report.md'));
  await annotateFailures(io, report);
  const written = reportFailure?.details?.['written'] as string[] | undefined;
  io.stdout.write(
    await consoleSummary(report, {
      outShown: shownPath(io.cwd, outDir),
      colour: pc.createColors(useColour(io, 'stdout')),
      ...(written ? { reportsWritten: written } : {}),
    }),
  );
  const failure = summary.outputFailure;
  if (failure || reportFailure) {
    throw new SignrunError(
      'SR_OUTPUT_WRITE',
      [failure ? `${failure.message}: the run started nothing new after that` : undefined, reportFailure?.message]
        .filter((m) => m !== undefined)
        .join('; '),
      {
        hint: 'Free disk space (or raise the file size limit) and run the same command again: envelopes already sent are adopted, never sent twice.',
        cause: failure ?? reportFailure,
      },
    );
  }
  return exitCodeOf(summary);
}

/** What a spread run says while it waits for the next hourly window. */
function budgetWaitLine(event: { resumeAt: string; callsLeft: number; windowsLeft?: number }): string {
  const at = event.resumeAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const rest =
    event.windowsLeft !== undefined
      ? `; ${event.callsLeft} call(s) to go need about ${event.windowsLeft} more hourly window(s), so the run should end within ${event.windowsLeft} hour(s) of then`
      : `; ${event.callsLeft} call(s) to go`;
  return `The hourly call budget is spent: waiting until ${at} to go on (--spread-over-hours)${rest}.\n`;
}
