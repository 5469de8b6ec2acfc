import type { CommandIO } from './io.js';

/**
 * A command module (src/cli/commands/<name>.ts) default-exports one of these.
 * It returns the exit code; it throws SignrunError for errors that end it.
 */
export type CommandHandler = (input: {
  /** Positional arguments, in order (variadic ones as arrays). */
  args: unknown[];
  /** Parsed options, camelCased by commander. */
  options: Record<string, unknown>;
  io: CommandIO;
  /** Fires on the first Ctrl-C / SIGTERM; a second one exits at once (handled by main). */
  signal: AbortSignal;
}) => Promise<number>;
