import { resolve } from 'node:path';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics, type DiagnosticFormat } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { loadJobs } from '../../jobs/index.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/index.js';
import { OutputFolder, previewFiles, terminalSafe } from '../../output/index.js';
import { createProgressCounter } from '../../reporters/index.js';
import { readStoredTemplates } from '../stored-templates.js';

/**
 * `signrun preview <paths...> [--out DIR] [--key KEY...] [--format text|json|github] [--warnings-ok]`:
 * loads the jobs as `validate` does, then draws every envelope (docs/preview.md).
 * Exit 2 on invalid input (nothing drawn), 1 when a warning was found (unless
 * --warnings-ok) or an envelope could not be drawn, 130 when a first Ctrl-C
 * or SIGTERM stopped it (the envelope in hand finished), else 0. Offline.
 */
const preview: CommandHandler = async ({ args, options, io, signal }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const format = (options['format'] as DiagnosticFormat | undefined) ?? 'text';
  const keys = options['key'] as string[] | undefined;
  const outDir = resolve(io.cwd, (options['out'] as string | undefined) ?? 'preview');
  const colour = useColour(io, 'stdout');

  const loaded = await loadJobs(patterns, { cwd: io.cwd, env: io.env, signal });
  if (!loaded.ok) {
    io.stdout.write(
      formatDiagnostics([...loaded.errors, ...loaded.warnings], format, { colour, summary: loaded.stats }),
    );
    return ExitCode.invalid;
  }
  // Loaded on demand: the renderer brings pdf.js and a native canvas, which no other command needs.
  const { previewJobs } = await import('../../preview/index.js');
  // A stored template is read once from the configured service (said so); offline, its envelopes are noted.
  const stored = await readStoredTemplates(loaded.jobs, io);
  if (stored.templates.size > 0)
    io.stderr.write(
      `read ${stored.templates.size} stored template(s) from the account to draw the envelopes that use them (${stored.apiCalls} API call(s))\n`,
    );
  for (const problem of stored.problems) io.stderr.write(`note: ${problem}\n`);
  const progress = createProgressCounter({ stream: io.stderr });
  let summary: Awaited<ReturnType<typeof previewJobs>>;
  try {
    summary = await previewJobs(loaded.jobs, {
      out: new OutputFolder(outDir),
      cwd: io.cwd,
      ...(keys === undefined ? {} : { keys }),
      ...(typeof options['scale'] === 'number' ? { scale: options['scale'] } : {}),
      ...(stored.templates.size > 0 ? { storedTemplates: stored.templates } : {}),
      onStart: (total) => progress.start(total),
      onEnvelope: ({ failed }) => progress.tick(failed),
      signal,
    });
  } finally {
    progress.finish();
    await stored.close();
  }
  if (keys !== undefined && summary.matched === 0)
    throw new SignrunError('SR_USAGE', `no envelope has the key ${keys.join(' or ')}`);

  const diagnostics = [...loaded.warnings, ...summary.diagnostics];
  if (format !== 'text' || diagnostics.length > 0) io.stdout.write(formatDiagnostics(diagnostics, format, { colour }));
  // Not warnings: a skipped template is said, on stderr, and does not change the exit code.
  for (const note of summary.notes)
    io.stderr.write(`note: ${terminalSafe(`${note.file}:${note.line} ${note.message}`)}\n`);
  const warnings = summary.diagnostics.filter((d) => d.severity === 'warning').length;
  const errors = summary.diagnostics.length - warnings;
  io.stderr.write(
    `previewed ${summary.envelopes} envelope${summary.envelopes === 1 ? '' : 's'}: ${warnings} warning${warnings === 1 ? '' : 's'}${errors > 0 ? `, ${errors} not drawn` : ''} → ${resolve(outDir, previewFiles.sheet)}\n`,
  );
  if (summary.interrupted) {
    io.stderr.write(
      `interrupted after ${summary.envelopes} of ${summary.matched} envelope(s): each one drawn is whole, and preview.html shows them\n`,
    );
    return ExitCode.interrupted;
  }
  if (errors > 0) return ExitCode.failed;
  return warnings > 0 && options['warningsOk'] !== true ? ExitCode.failed : ExitCode.ok;
};
export default preview;
