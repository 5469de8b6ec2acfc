import type { CommandHandler } from '../command.js';
import { formatDiagnostics, type DiagnosticFormat } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { loadJobs } from '../../jobs/index.js';
import { ExitCode } from '../../errors/catalogue-entry.js';

/**
 * `signrun validate <paths|globs...> [--format text|json|github]`: offline
 * checks of job files; exit 0 when valid, 2 when not (DESIGN.md).
 */
const validate: CommandHandler = async ({ args, options, io }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const format = (options['format'] as DiagnosticFormat | undefined) ?? 'text';
  const result = await loadJobs(patterns, { cwd: io.cwd, env: io.env });
  const diagnostics = result.ok ? result.warnings : [...result.errors, ...result.warnings];
  io.stdout.write(formatDiagnostics(diagnostics, format, { colour: useColour(io, 'stdout'), summary: result.stats }));
  return result.ok ? ExitCode.ok : ExitCode.invalid;
};
export default validate;
