import type { Timing } from '../client/timing.js';

/** What a command may touch of the outside world; tests and the library pass their own. */
export interface CommandIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * The clock `run` reads and waits on (its sync, the client's delays, the
   * wait for the next hourly window). Absent: the real one, as a real run
   * always has. Tests give the sandbox's movable clock, so an hour passes
   * when they move it, not in real time.
   */
  timing?: Timing;
}

export function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Colour only on a TTY and when NO_COLOR is not set (https://no-color.org). */
export function useColour(io: CommandIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  const noColor = io.env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return Boolean(io[stream].isTTY);
}
