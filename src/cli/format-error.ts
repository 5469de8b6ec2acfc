import pc from 'picocolors';
import type { SignrunError } from '../errors/signrun-error.js';
import { useColour, type CommandIO } from './io.js';
import { terminalSafe } from '../output/terminal-text.js';

/** `file:line:col SR_CODE message` then the hint, for people on a console. */
export function formatErrorForConsole(error: SignrunError, io: CommandIO): string {
  const colour = pc.createColors(useColour(io, 'stderr'));
  const where = error.location
    ? terminalSafe(`${error.location.file}:${error.location.line}:${error.location.column} `)
    : '';
  const lines = [`${where}${colour.red(colour.bold(error.code))} ${terminalSafe(error.message)}`];
  if (error.hint) lines.push(colour.dim(`  ${error.hint}`));
  return `${lines.join('\n')}\n`;
}
