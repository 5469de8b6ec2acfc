import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built bin, as `npx signrun` runs it. Tests call `npm test`, which builds first. */
export const binPath = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the real CLI. `env` is added to a clean environment: DOCUSIGN_* of
 * the developer's shell never leak into a test.
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number; input?: string } = {},
): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('DOCUSIGN_') && k !== 'FORCE_COLOR') env[k] = v;
  }
  env['NO_COLOR'] = '1';
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
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
