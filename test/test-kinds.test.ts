import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fg from 'fast-glob';
import { endToEndCalls, endToEndTestFiles, isEndToEndSource } from './test-kinds.js';
import { repoRoot } from './helpers/run-cli.js';

describe('unit and e2e projects (test/test-kinds.ts)', () => {
  it('calls the sandbox, a server, a process or a browser e2e; words in comments and other calls are not', () => {
    expect(isEndToEndSource('const s = await startSandbox({ port: 0 });')).toBe(true);
    expect(isEndToEndSource('await runCli(["run", dir]);')).toBe(true);
    expect(isEndToEndSource('await runCli(args, { env });')).toBe(true);
    expect(isEndToEndSource('await spawnCli(["validate", dir]);')).toBe(true);
    expect(isEndToEndSource('server.listen(0, "127.0.0.1", done);')).toBe(true);
    expect(isEndToEndSource('const app = await buildSandboxApp(); await app.inject({ url: "/" });')).toBe(false);
    expect(isEndToEndSource('// no startSandbox() here\n/* nor runCli() */ const x = restartSandbox;')).toBe(false);
    expect(isEndToEndSource('const r = await tool("pdftotext", [file, "-"]);')).toBe(false);
  });

  it('an in-process CLI call is unit when its command, written out, opens no socket', () => {
    expect(isEndToEndSource('await runCli(["validate", dir]);')).toBe(false);
    expect(isEndToEndSource("await runCli([\n  'status', '.', '--out', out]);")).toBe(false);
    expect(isEndToEndSource("await runCli(['--help']);")).toBe(false);
    expect(isEndToEndSource("await runCli(['validate', dir]); await runCli(['sync', dir]);")).toBe(true);
    expect(isEndToEndSource("await runCli(['validated', dir]);")).toBe(true);
  });

  it('knows every test helper that spawns, listens or opens a browser', () => {
    // A helper doing one of these must export a function named in
    // endToEndCalls, or the tests calling it would land in the unit project.
    // pdf-tools only runs the PDF checkers (pdftotext, qpdf, pdfsig).
    const doesEndToEnd = /from 'node:child_process'|\.listen\(|createServer\(|from 'playwright-core'/;
    const helpers = fg.sync('test/**/*.ts', { cwd: repoRoot, ignore: ['**/*.test.ts', 'test/signing/pdf-tools.ts'] });
    for (const helper of helpers) {
      const source = readFileSync(`${repoRoot}/${helper}`, 'utf8');
      if (!doesEndToEnd.test(source) || helper === 'test/test-kinds.ts') continue;
      const exported = [...source.matchAll(/export (?:async )?function (\w+)/g)].map((m) => m[1]);
      expect(
        exported.some((name) => (endToEndCalls as readonly string[]).includes(name!)),
        `${helper} exports ${exported.join(', ')}`,
      ).toBe(true);
    }
  });

  it('puts the CLI, serve and browser tests in e2e', () => {
    const e2e = endToEndTestFiles(repoRoot);
    for (const file of ['test/cli/run.test.ts', 'test/sandbox/serve-cli.test.ts', 'test/browser/signing-page.test.ts'])
      expect(e2e).toContain(file);
    // validate's CLI tests run it in-process and open no socket.
    expect(e2e).not.toContain('test/cli/validate.test.ts');
    expect(e2e).not.toContain('test/test-kinds.test.ts');
  });
});
