import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandIO } from './io.js';

/** Whether the user asked for stack traces: `--debug` on the command line or SIGNRUN_DEBUG in the environment. */
export function debugWanted(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const variable = env['SIGNRUN_DEBUG'];
  return argv.includes('--debug') || (variable !== undefined && variable !== '' && variable !== '0');
}

/**
 * Says that signrun failed on an error it did not expect (a bug, or the
 * machine running out of memory): `SR_INTERNAL`, where the details were
 * written and what to do — never a raw Node stack trace, which tells a user
 * nothing and may carry a value of their data (issue 36: `preview` died of a
 * RangeError under a memory limit and printed one). The stack goes to a log
 * file of its own (mode 0600, in the system's temp folder), and to the
 * console only with `--debug` or SIGNRUN_DEBUG=1. Synchronous: it is also
 * what the process says on its way out of an uncaught exception.
 */
export function reportInternalError(error: unknown, io: CommandIO, debug: boolean): void {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? message) : message;
  const log = path.join(
    tmpdir(),
    `signrun-internal-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`,
  );
  let logged = true;
  try {
    writeFileSync(log, `signrun ${process.argv.slice(2).join(' ')}\nnode ${process.version}\n\n${stack}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch {
    logged = false;
  }
  const firstLine = message.split('\n')[0]!.slice(0, 300);
  io.stderr.write(
    `signrun: internal error (SR_INTERNAL): ${firstLine}\n` +
      (debug ? `${stack}\n` : '') +
      (logged ? `  The details are in ${log}.\n` : '') +
      `  This is a bug in signrun, or the machine ran out of memory: ${
        debug ? '' : 'run again with --debug (or SIGNRUN_DEBUG=1) to see the stack trace, and '
      }report it with the log; nothing more was started after it.\n`,
  );
}
