import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Changes } from '../helpers/barrier.js';
import { lockFileName } from '../../src/state/state-lock.js';

/** Woken after each line any child printed has reached its `onLine`: waitForLine re-checks then. */
const linesArrived = new Changes();

/** dist/state/index.js: child processes run the built code, as the real CLI would. */
export const stateModule = fileURLToPath(new URL('../../dist/state/index.js', import.meta.url));

/**
 * Starts `node` on an ES module script given as text, with `STATE` imported
 * from dist/state. Lines the child prints arrive through `onLine`.
 */
export function spawnStateScript(
  body: string,
  onLine: (line: string) => void = () => {},
): ChildProcess & { exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const script = `import * as STATE from ${JSON.stringify(stateModule)};\n${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      onLine(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
    linesArrived.changed();
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      if (code !== 0 && signal === null && stderr) process.stderr.write(stderr);
      resolve({ code, signal });
    }),
  );
  return Object.assign(child, { exited });
}

/**
 * Resolves when `predicate` holds for a line the child printed (into
 * `lines`, by its onLine), re-checked as lines arrive: no polling. After
 * `timeoutMs` it fails, naming the lines seen (a bound, not a wait).
 */
export async function waitForLine(
  lines: string[],
  predicate: (line: string) => boolean,
  timeoutMs = 10_000,
): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no such line from the child; got: ${lines.join(' | ')}`)), timeoutMs);
  });
  try {
    await Promise.race([linesArrived.until(() => lines.some(predicate)), timedOut]);
    return lines.find(predicate)!;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Writes a lock file in `dir` held by a pid that surely no longer exists on
 * this host (a child that has exited), as a run killed with SIGKILL leaves
 * it: token `stale`. Resolves with that pid.
 */
export async function writeStaleLock(dir: string, command: string): Promise<number | undefined> {
  const dead = spawnStateScript('process.exit(0);');
  await dead.exited;
  await writeFile(
    join(dir, lockFileName),
    JSON.stringify({
      pid: dead.pid,
      hostname: hostname(),
      startedAt: '2026-11-20T09:00:00.000Z',
      command,
      token: 'stale',
    }),
  );
  return dead.pid;
}
