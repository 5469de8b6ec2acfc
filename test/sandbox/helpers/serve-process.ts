import { spawn, type ChildProcess } from 'node:child_process';
import { binPath, repoRoot } from '../../helpers/run-cli.js';

/** A `signrun serve` child process and the root URL it printed. */
export interface ServeProcess {
  child: ChildProcess;
  rootUrl: string;
  origin: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the built bin (`node dist/cli/bin.js serve …`) and waits for its listening line. */
export function spawnServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [binPath, 'serve', '--port', '0', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  // 'close', not 'exit': 'exit' may come before the last of the child's output has been read (restart's
  // "sandbox stopped" was missing once in a loaded run while the exit code was 0).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    // Under the hook's 60 s, and the child killed: one that never said it listens was left running after the run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${out}`));
    }, 50_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const match = /sandbox listening on (https?:\/\/[^\s/]+)(\/restapi\/v2)\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, origin: match[1]!, rootUrl: `${match[1]}${match[2]}`, output: () => out, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${out}`));
    });
  });
}
