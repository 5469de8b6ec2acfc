import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import fg from 'fast-glob';

/**
 * Which tests are end-to-end, decided by what they do rather than by a list
 * of files kept by hand: a test file is e2e when it calls one of these —
 * the sandbox or a server of its own listening on a socket, the built CLI or
 * another Node process, a browser. Everything else runs in one process and
 * is a unit test (`buildSandboxApp().inject()` included: no socket; the PDF
 * checkers pdftotext/qpdf/pdfsig run through `tool()` are not signrun across
 * a boundary and stay unit). vitest.config.ts splits its two projects with
 * it. A new test helper that spawns, listens or opens a browser adds its
 * name here.
 *
 * `runCli` runs the CLI in the test's own process, but a command that talks
 * to a service (`run`, `plan`, `sync` …) listens: with no root URL it starts
 * the sandbox on a loopback port. So `runCli` is e2e except where its first
 * argument is written out as one of {@link offlineCommands}.
 */
export const endToEndCalls = [
  // sockets
  'startSandbox',
  'listen',
  'createServer',
  'startReceiver',
  'startTinyApp',
  'startReturnServer',
  'startHostileProxy',
  'useHeldCloneSandbox',
  // processes: the CLI, `signrun serve`, child scripts
  'spawn',
  'spawnSync',
  'fork',
  'runCli',
  'spawnCli',
  'spawnServe',
  'spawnStateScript',
  'writeStaleLock',
  'runChaos',
  'startCloneRun',
  // worker threads running the built dist/ (the sandbox's document pool)
  'builtDocumentWork',
  // a browser
  'launchBrowser',
  'sharedBrowser',
] as const;

/** Commands that never open a socket: `runCli([<one of these>, …])` is a unit test's call. */
export const offlineCommands = ['validate', 'preview', 'status', 'report', '--help', '--version'] as const;

const offlineCli = new RegExp(`runCli\\(\\s*\\[\\s*(['"])(?:${offlineCommands.join('|')})\\1`, 'g');

const calls = new RegExp(`(?:^|[^\\w$])(?:${endToEndCalls.join('|')})\\(`, 'm');

/** Whether a test file's source calls anything of endToEndCalls. */
export function isEndToEndSource(source: string): boolean {
  // Comments say what a test avoids as often as what it does, and quoted
  // strings may hold code as data: both are left out (one left-to-right
  // pass, so a `//` inside a string is not taken for a comment).
  const code = source
    .replace(offlineCli, 'offlineCli([$1$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (token) =>
      token.startsWith('/') ? '' : "''",
    );
  return calls.test(code);
}

/** Test files (relative to root, forward slashes) that are end-to-end. */
export function endToEndTestFiles(root: string): string[] {
  return fg
    .sync('test/**/*.test.ts', { cwd: root, absolute: true })
    .filter((file) => isEndToEndSource(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort();
}
