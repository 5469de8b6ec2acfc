import path from 'node:path';
import pc from 'picocolors';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour, type CommandIO } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { prepare } from '../../runner/prepare.js';
import { resolveTarget } from '../../runner/target.js';
import { runJobs, PreflightError, type DocumentsWhen } from '../../runner/index.js';
import { exitCodeOf } from '../../runner/run-summary.js';
import { OutputFolder } from '../../output/output-folder.js';
import { reportOf } from '../../reporters/report-json.js';
import { writeReports } from '../../reporters/write-reports.js';
import { consoleSummary } from '../../reporters/console-summary.js';
import { createProgress } from '../../reporters/progress.js';
import { parseShard } from '../../state/shard.js';
import { leanHeap } from '../lean-heap.js';
import { sync } from '../../sync/sync.js';

/** How a folder is shown to the user: relative to the working folder when inside it. */
export function shownPath(cwd: string, target: string): string {
  const rel = path.relative(cwd, target);
  return rel === '' ? '.' : !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : target;
}

function printDiagnostics(io: CommandIO, diagnostics: Parameters<typeof formatDiagnostics>[0]): void {
  if (diagnostics.length > 0)
    io.stderr.write(formatDiagnostics(diagnostics, 'text', { colour: useColour(io, 'stderr') }));
}

/**
 * `signrun run <paths...> [--out DIR] [--concurrency N] [--shard K/N]`:
 * validate (exit 2, nothing sent), resolve the target (start the sandbox
 * in-process when no root URL is configured, and say so first), run, write
 * the reports, print the summary. Exit 0 / 1 / 2 / 130 (DESIGN.md).
 */
const runCommand: CommandHandler = async ({ args, options, io, signal }) => {
  // Before validation: its full collections set the heap's first limits.
  leanHeap();
  const patterns = (args[0] as string[] | undefined) ?? [];
  const shard = typeof options['shard'] === 'string' ? parseShard(options['shard']) : undefined;
  const prepared = await prepare(patterns, { cwd: io.cwd, env: io.env, ...(shard ? { shard } : {}) });
  if (!prepared.ok) {
    printDiagnostics(io, [...prepared.errors, ...prepared.warnings]);
    io.stderr.write(
      `Nothing was sent: fix the ${prepared.errors.length} error(s) above, then run again (\`signrun validate\` checks offline).\n`,
    );
    return ExitCode.invalid;
  }
  printDiagnostics(io, prepared.warnings);
  const { config, jobs } = prepared;
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? config.outDir);
  const concurrency = (options['concurrency'] as number | undefined) ?? config.concurrency;
  const out = new OutputFolder(outDir);
  const colour = pc.createColors(useColour(io, 'stdout'));

  // The sandbox (fastify, SQLite, PDF tooling) is loaded only when it is the target.
  const target = await resolveTarget(config, async (sandboxOptions) =>
    (await import('../../sandbox/index.js')).startSandbox(sandboxOptions),
  );
  try {
    if (target.sandbox) {
      io.stdout.write(
        `Started the signrun sandbox in-process at ${target.rootUrl} (no DOCUSIGN_ROOT_URL configured); it stops when this run ends.\n`,
      );
    } else {
      io.stdout.write(`Target: ${target.rootUrl}\n`);
    }
    const envelopes = jobs.reduce((n, j) => n + j.envelopes.length, 0);
    const accounts = jobs.reduce((n, j) => n + j.accounts.length, 0);
    io.stdout.write(
      `Running ${envelopes} envelope(s) and ${accounts} account(s) from ${jobs.length} job(s), ${concurrency} at a time${shard ? ` (shard ${shard.index}/${shard.count})` : ''}; outputs in ${shownPath(io.cwd, outDir)}/\n`,
    );
    const stateDir = target.sandbox
      ? undefined
      : path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
    if (stateDir) {
      // run converges (issue 12): what was sent is synced first — one status
      // listing, within DocuSign's polling rule — so settled envelopes ask
      // for nothing and completed ones are collected, and cron needs one command.
      const synced = await sync({
        jobs,
        target: { rootUrl: target.rootUrl, sandbox: target.sandbox, auth: target.auth },
        outDir,
        stateDir,
        signal,
        command: 'signrun run (sync)',
        // Declared voids (status: voided) and, when asked, replacement of drifted envelopes.
        act: { replaceDrifted: options['replaceDrifted'] === true },
        onEvent: (event) => {
          if (event.type === 'warning' && !event.message.startsWith('the last status listing'))
            io.stderr.write(`warning: ${event.message}\n`);
        },
      });
      await synced.close();
    }
    const progress = createProgress({ stream: io.stderr });
    let summary;
    try {
      summary = await runJobs({
        jobs,
        target: { rootUrl: target.rootUrl, sandbox: target.sandbox, auth: target.auth },
        outDir,
        concurrency,
        signal,
        // Nothing here reads the jobs again: the run lets each envelope go once started.
        releaseEnvelopes: true,
        ...(typeof options['documents'] === 'string' ? { documents: options['documents'] as DocumentsWhen } : {}),
        ...(typeof options['maxCallsPerHour'] === 'number' ? { maxCallsPerHour: options['maxCallsPerHour'] } : {}),
        onEvent: (event) => {
          if (event.type === 'warning') io.stderr.write(`warning: ${event.message}\n`);
          progress.onEvent(event);
        },
        // The state folder (lock + journal) belongs to a lasting service; an
        // in-process sandbox dies with the run, and its journal would point at nothing.
        ...(stateDir ? { stateDir } : {}),
        command: [
          'signrun',
          'run',
          ...patterns,
          ...(typeof options['out'] === 'string' ? ['--out', options['out']] : []),
        ].join(' '),
        ...(target.distributor ? { distributor: target.distributor } : {}),
        ...(target.integratorKey ? { integratorKey: target.integratorKey } : {}),
      });
    } catch (error) {
      progress.finish();
      if (error instanceof PreflightError) {
        printDiagnostics(
          io,
          error.problems.map((p) => ({
            code: p.code,
            severity: 'error' as const,
            message: p.message,
            file: shownPath(io.cwd, p.source.file),
            line: p.source.line,
            column: p.source.column,
          })),
        );
        io.stderr.write('Nothing was sent.\n');
        return ExitCode.invalid;
      }
      throw error;
    }
    progress.finish();
    try {
      const report = reportOf(summary, io.cwd);
      await writeReports(out, report);
      io.stdout.write(await consoleSummary(report, { outShown: shownPath(io.cwd, outDir), colour }));
      return exitCodeOf(summary);
    } finally {
      await summary.close();
    }
  } finally {
    await target.close();
  }
};
export default runCommand;
