import { appendFile, readFile } from 'node:fs/promises';
import type { Diagnostic, SourcePosition } from '../jobs/model.js';
import type { ErrorCode } from '../errors/index.js';
import type { ReportSource } from '../reporters/report-json.js';
import { data, formatDiagnostics, property } from './format-diagnostics.js';
import type { CommandIO } from './io.js';

/**
 * What a command does for GitHub Actions, on every exit, without the user
 * asking: annotations for the diagnostics (workflow commands on stdout,
 * which GitHub turns into `::error` marks on the job file's lines), and the
 * report appended to the job's step summary. Both only when GitHub says it
 * runs the step (`GITHUB_ACTIONS=true`, `GITHUB_STEP_SUMMARY`).
 */
export function onGitHubActions(io: CommandIO): boolean {
  return io.env['GITHUB_ACTIONS'] === 'true';
}

/** `::error file=…,line=…` for each diagnostic, when the step runs on GitHub Actions. */
export function annotate(io: CommandIO, diagnostics: readonly Diagnostic[]): void {
  if (onGitHubActions(io) && diagnostics.length > 0)
    io.stdout.write(formatDiagnostics([...diagnostics], 'github', { colour: false }));
}

/** GitHub shows ten error annotations per step; a few more cost nothing, thousands would flood the log. */
const maxFailureAnnotations = 50;

/**
 * `::error file=…,line=…` for each failed envelope and account of a report
 * (at most 50), when the step runs on GitHub Actions: an envelope is marked
 * at its forEach row (the CSV line) when it has one, where what differs
 * from row to row is written.
 */
export async function annotateFailures(io: CommandIO, report: ReportSource): Promise<void> {
  if (!onGitHubActions(io)) return;
  // Imported here: the run summary's module (and the spool and identities it brings) is a start-up cost of
  // every command that imports this file, `validate` included, and only a report's annotations need it.
  const { placeOfEnvelope } = await import('../runner/run-summary.js');
  const failures: Diagnostic[] = [];
  const add = (
    place: SourcePosition,
    item: { job: string; key: string; error?: { code: string; message: string } },
  ): void => {
    failures.push({
      code: (item.error?.code ?? 'SR_INTERNAL') as ErrorCode,
      severity: 'error',
      message: `${item.job}/${item.key}: ${item.error?.message ?? 'failed'}`,
      ...place,
    });
  };
  for (const a of report.accounts)
    if (a.outcome === 'failed' && failures.length < maxFailureAnnotations) add(a.source, a);
  for await (const e of report.envelopes()) {
    if (failures.length >= maxFailureAnnotations) break;
    if (e.outcome === 'failed') add(placeOfEnvelope(e), e);
  }
  annotate(io, failures);
}

/**
 * `::error title=CODE::message` for an error that ended the command without
 * a place in a job file (configuration, login, the service), when the step
 * runs on GitHub Actions.
 */
export function annotateError(io: CommandIO, code: string, message: string): void {
  if (onGitHubActions(io)) io.stdout.write(`::error title=${property(code)}::${data(message)}\n`);
}

/**
 * Appends markdown to the step summary. A summary that cannot be written
 * is said on stderr and changes nothing else: the command's own outputs
 * and exit code are what count.
 */
export async function appendStepSummary(io: CommandIO, markdown: string): Promise<void> {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (!file) return;
  try {
    await appendFile(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  } catch (error) {
    io.stderr.write(`warning: the step summary ${file} was not written: ${(error as Error).message}\n`);
  }
}

/** The report.md just written, appended to the step summary. */
export async function appendReportToStepSummary(io: CommandIO, reportMd: string): Promise<void> {
  if (!io.env['GITHUB_STEP_SUMMARY']) return;
  const markdown = await readFile(reportMd, 'utf8').catch(() => undefined);
  if (markdown !== undefined) await appendStepSummary(io, markdown);
}
