import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { Timing } from '../../src/client/timing.js';

/** The built bin, as `npx signrun` runs it. Tests call `npm test`, which builds first. */
export const binPath = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Working folder; default the repository's root. */
  cwd?: string;
  /** Added to a clean environment (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** Spawned CLI only: killed (SIGKILL) after this long; default 60 s. */
  timeoutMs?: number;
  /** Spawned CLI only: written to its stdin. */
  input?: string;
  /** In-process CLI only: the clock `run` reads and waits on (CommandIO's `timing`); default the real one. */
  timing?: Timing;
}

/**
 * The environment a CLI under test sees: the test process's own, without
 * DOCUSIGN_* of the developer's shell (they never leak into a test) and
 * without colour, then `extra` on top.
 */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('DOCUSIGN_') && k !== 'FORCE_COLOR') env[k] = v;
  }
  env['NO_COLOR'] = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** A stream that keeps what is written to it, as the text a terminal would show. */
class CapturedText extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }
}

/**
 * Runs the CLI in this process: `main(argv, io)`, the function bin.js calls,
 * with stdout and stderr captured, the given environment and working folder.
 * What a command decides, prints and writes is the same as when spawned,
 * without a Node process to start (and to load src/ again) per call. Where
 * the process itself is the subject — signals, exit after a crash, racing or
 * killed processes — use {@link spawnCli}.
 */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const stdout = new CapturedText();
  const stderr = new CapturedText();
  const code = await main(['node', 'signrun', ...args], {
    stdout,
    stderr,
    env: cliEnv(options.env),
    cwd: options.cwd ?? repoRoot,
    ...(options.timing ? { timing: options.timing } : {}),
  });
  return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
}

/**
 * Spawns the real, built CLI (dist/cli/bin.js), for tests whose subject is
 * the process: its signals, its exit code after a crash, processes racing or
 * killed. `env` is added to a clean environment ({@link cliEnv}).
 */
export function spawnCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env = cliEnv(options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd: options.cwd ?? repoRoot, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
