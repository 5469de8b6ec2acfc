import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/run-cli.js';

/**
 * Runs the real bin with a module loaded before it (`--import`) that throws
 * once the command is running (the moment main listens for SIGINT): an
 * error no command catches, as a RangeError of a process out of memory was
 * (issue 36: `preview` printed Node's raw stack).
 */
function crash(thrower: string, extra: string[] = [], env: Record<string, string> = {}) {
  const preload = `data:text/javascript,${encodeURIComponent(
    `const on = process.on.bind(process);
     process.on = (event, listener) => {
       const result = on(event, listener);
       if (event === 'SIGINT') setImmediate(() => { ${thrower} });
       return result;
     };`,
  )}`;
  const child = spawn(process.execPath, ['--import', preload, binPath, 'validate', 'examples', ...extra], {
    cwd: repoRoot,
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1', SIGNRUN_DEBUG: '', ...env },
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.resume();
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
}

const stackLine = /^\s+at .+:\d+:\d+\)?$/m;

describe('an error no command catches (issue 36)', () => {
  it('an uncaught exception is SR_INTERNAL with the log file and what to do, no raw stack', async () => {
    const { code, stderr } = await crash("throw new RangeError('Array buffer allocation failed');");
    expect(code).toBe(1);
    expect(stderr).toMatch(/SR_INTERNAL/);
    expect(stderr).toMatch(/Array buffer allocation failed/);
    expect(stderr).toMatch(/--debug/);
    expect(stderr).not.toMatch(stackLine);
    const log = /details are in (\S+)\.\n/.exec(stderr)?.[1];
    expect(log).toBeDefined();
    // The log holds the stack the console did not show.
    expect(await readFile(log!, 'utf8')).toMatch(stackLine);
  });

  it('an unhandled rejection too; with --debug the stack is shown', async () => {
    const plain = await crash("Promise.reject(new Error('lost promise'));");
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/SR_INTERNAL.*lost promise/);
    expect(plain.stderr).not.toMatch(stackLine);
    const debug = await crash("Promise.reject(new Error('lost promise'));", ['--debug']);
    expect(debug.stderr).toMatch(/SR_INTERNAL.*lost promise/);
    expect(debug.stderr).toMatch(stackLine);
  });
});
