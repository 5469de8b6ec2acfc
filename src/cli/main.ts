import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { processIO, type CommandIO } from './io.js';
import { terminalIO } from './terminal-io.js';
import { isSignrunError } from '../errors/signrun-error.js';
import { ExitCode } from '../errors/catalogue-entry.js';
import { formatErrorForConsole } from './format-error.js';
import { debugWanted, reportInternalError } from './internal-error.js';
import type { CommandHandler } from './command.js';
import { annotateError } from './github-actions.js';
import { removeLiveTempFiles } from '../output/atomic-write.js';

/**
 * The one exit point: every command returns an exit code or throws; this maps
 * what it threw to a message and an exit code. Nothing else calls process.exit.
 */
export async function main(given: string[], consoleIO: CommandIO = processIO()): Promise<number> {
  // Every line any command prints passes the terminal guard (control characters from data escaped).
  const io = terminalIO(consoleIO);
  // --debug is signrun's, before or after the command's name: taken out before the commands parse theirs.
  const debug = debugWanted(given, io.env);
  const argv = given.filter((arg) => arg !== '--debug');
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts === 1) {
      io.stderr.write(
        `\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: finishing what is in flight, then stopping; press Ctrl-C again to stop at once.\n`,
      );
      controller.abort();
    } else {
      // Writes in flight will not finish: their temp files go now, so that none is left behind.
      removeLiveTempFiles();
      io.stderr.write('Stopped at once.\n');
      process.exit(ExitCode.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let chosen: Promise<number> | undefined;
  const program = buildProgram(io, (_name, load, args, options) => {
    chosen = load().then((mod: { default: CommandHandler }) =>
      mod.default({ args, options, io, signal: controller.signal }),
    );
  });

  try {
    await program.parseAsync(argv, { from: 'node' });
    if (!chosen) {
      program.outputHelp();
      return ExitCode.invalid;
    }
    return await chosen;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exitCode 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.invalid;
    }
    if (isSignrunError(error)) {
      io.stderr.write(formatErrorForConsole(error, io));
      annotateError(io, error.code, error.message);
      return error.exitCode;
    }
    reportInternalError(error, io, debug);
    return ExitCode.failed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
