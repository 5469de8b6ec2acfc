import type { CommandHandler } from '../command.js';
import { formatDiagnostics, type DiagnosticFormat } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { loadJobs } from '../../jobs/index.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { annotate, appendStepSummary } from '../github-actions.js';
import { bulkSendGroups, bulkSendProblems } from '../../runner/bulk-send/bulk-send-fit.js';

/**
 * `signrun validate <paths|globs...> [--format text|json|github]`: offline
 * checks of job files; exit 0 when valid, 2 when not (DESIGN.md); 130
 * (SR_INTERRUPTED) when a first Ctrl-C or SIGTERM stops it, once the row or
 * document in hand is checked.
 *
 * What only refused input needs (the step summary's report, the bulk-send
 * diagnostics, whose module brings `run`'s configuration loader) is
 * imported when there is some (issue 37: start-up is a fifth of a big
 * campaign's main thread, and most `validate` runs find nothing).
 */
const validate: CommandHandler = async ({ args, options, io, signal }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const format = (options['format'] as DiagnosticFormat | undefined) ?? 'text';
  // Nothing here compares digests: only `run` does, with what it sent.
  const loaded = await loadJobs(patterns, { cwd: io.cwd, env: io.env, signal, digests: false });
  // Envelopes marked `bulkSend: true` whose rows cannot be copies of one model are refused here too,
  // as `run` refuses them (`run --bulk-send` also checks the forEach envelopes without the mark).
  const problems = loaded.ok
    ? bulkSendProblems(
        bulkSendGroups(
          loaded.jobs.flatMap((j) => j.envelopes),
          false,
        ),
      )
    : [];
  const unfit =
    problems.length > 0 ? (await import('../prepared-or-diagnostics.js')).preflightDiagnostics(problems, io.cwd) : [];
  const result = loaded.ok && unfit.length > 0 ? { ...loaded, ok: false as const, errors: unfit } : loaded;
  const diagnostics = result.ok ? result.warnings : [...result.errors, ...result.warnings];
  io.stdout.write(formatDiagnostics(diagnostics, format, { colour: useColour(io, 'stdout'), summary: result.stats }));
  // On GitHub Actions, text output is also annotated (json stays one JSON
  // document on stdout; github is annotations already), and refused input is
  // summarised in the step summary.
  if (format === 'text') annotate(io, diagnostics);
  if (!result.ok) {
    const { invalidInputMarkdown } = await import('../../reporters/invalid-input-report.js');
    await appendStepSummary(io, invalidInputMarkdown('signrun validate', result.errors));
  }
  return result.ok ? ExitCode.ok : ExitCode.invalid;
};
export default validate;
