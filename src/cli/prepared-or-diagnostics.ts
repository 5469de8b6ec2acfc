import { shownPath } from './shown-path.js';
import { errorCatalogue } from '../errors/catalogue.js';
import type { Diagnostic } from '../jobs/model.js';
import type { PreflightProblem } from '../runner/templates/template-check.js';
import { prepare, type Prepared } from '../runner/prepare.js';
import type { Shard } from '../state/shard.js';
import { formatDiagnostics } from './format-diagnostics.js';
import path from 'node:path';
import { annotate, appendStepSummary } from './github-actions.js';
import { useColour, type CommandIO } from './io.js';
import { OutputFolder } from '../output/output-folder.js';
import { invalidInputMarkdown, writeInvalidInputReports } from '../reporters/invalid-input-report.js';

/**
 * Diagnostics on stderr as `validate` prints them (text, colour on a TTY),
 * and as annotations when the step runs on GitHub Actions; nothing when
 * there are none.
 */
export function printDiagnostics(io: CommandIO, diagnostics: Diagnostic[]): void {
  if (diagnostics.length > 0)
    io.stderr.write(formatDiagnostics(diagnostics, 'text', { colour: useColour(io, 'stderr') }));
  annotate(io, diagnostics);
}

/**
 * The problems found before sending (a template's roles and labels, rows
 * Bulk Send cannot copy), as diagnostics at their job file's line, each with
 * its code's hint (what to do next), as the job files' own diagnostics have.
 */
export function preflightDiagnostics(problems: readonly PreflightProblem[], cwd: string): Diagnostic[] {
  return problems.map((p) => ({
    code: p.code,
    severity: 'error' as const,
    message: p.message,
    file: shownPath(cwd, p.source.file),
    line: p.source.line,
    column: p.source.column,
    hint: errorCatalogue[p.code].hint,
  }));
}

export interface PreparedOrDiagnosticsOptions {
  /** Keep only the envelopes and accounts of this shard (`run --shard K/N`). */
  shard?: Shard;
  /** A line after the errors saying what was not done and what to do next, given the number of errors. */
  nothingDone?: (errors: number) => string;
  /** Print the warnings of valid input too (`run` and `sync` do; the others print them only with errors). */
  printWarnings?: boolean;
  /** The command as the step summary and reports name it (`signrun run`): invalid input is summarised there on GitHub Actions. */
  summaryTitle?: string;
  /**
   * Invalid input also leaves report.md and junit.xml (naming the cause) in
   * the output folder: `out` is the command's `--out`, else the
   * configuration's `outDir`, else `out`. Commands that write reports (run,
   * sync) ask for it, so that CI has something to show on every exit.
   */
  reports?: { out: string | undefined };
  /** The command's signal (main's first Ctrl-C or SIGTERM): validation stops with SR_INTERRUPTED. */
  signal?: AbortSignal;
  /** Keep forEach rows' envelopes as their rows until sent (`run`: jobs/row-envelope.ts). */
  streamRows?: boolean;
}

/**
 * The start every command over job files shares: configuration and jobs
 * (validation first, before any network call), or the diagnostics on stderr
 * and `undefined`, when the caller returns ExitCode.invalid.
 */
export async function preparedOrDiagnostics(
  io: CommandIO,
  patterns: string[],
  options: PreparedOrDiagnosticsOptions = {},
): Promise<Extract<Prepared, { ok: true }> | undefined> {
  const prepared = await prepare(patterns, {
    cwd: io.cwd,
    env: io.env,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.streamRows ? { streamRows: true } : {}),
  });
  if (!prepared.ok) {
    printDiagnostics(io, [...prepared.errors, ...prepared.warnings]);
    if (options.nothingDone) io.stderr.write(options.nothingDone(prepared.errors.length));
    const title = options.summaryTitle ?? 'signrun';
    if (options.reports) {
      const outDir = path.resolve(io.cwd, options.reports.out ?? prepared.config?.outDir ?? 'out');
      try {
        await writeInvalidInputReports(new OutputFolder(outDir), title, prepared.errors);
        io.stderr.write(`Reports naming the cause are in ${shownPath(io.cwd, outDir)}/ (report.md, junit.xml).\n`);
      } catch (error) {
        // The diagnostics above are what counts; a folder that refuses the reports is said, not thrown.
        io.stderr.write(`warning: the reports were not written: ${(error as Error).message}\n`);
      }
    }
    if (options.summaryTitle) await appendStepSummary(io, invalidInputMarkdown(title, prepared.errors));
    return undefined;
  }
  if (options.printWarnings) printDiagnostics(io, prepared.warnings);
  return prepared;
}
