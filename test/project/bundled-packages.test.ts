import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/run-cli.js';

// build/bundle.mjs puts the plain-JavaScript packages a command loads at start
// into the command line's chunks (build/inlined-packages.mjs): a `validate` or a
// `run` then reads none of their files from node_modules, where it read and
// compiled some 165 of them one by one before (BENCHMARKS "s47-startup").
const preload = `
import { createRequire, register } from 'node:module';
import { writeFileSync } from 'node:fs';
const Module = createRequire(import.meta.url)('node:module');
const loaded = [];
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) { loaded.push(filename); return compile.call(this, content, filename); };
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.push(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(
  'let port; export function initialize(d) { port = d.port; }' +
  'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }'),
  { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
process.on('exit', () => writeFileSync(process.env.LOADED_OUT, JSON.stringify(loaded)));
`;

describe('the command line’s bundle', () => {
  it('validate loads no file of an inlined package from node_modules, and still the external ones', async () => {
    const { inlined, packageOf } = (await import(
      pathToFileURL(path.join(repoRoot, 'build/inlined-packages.mjs')).href
    )) as {
      inlined: Set<string>;
      packageOf: (id: string) => string;
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signrun-bundled-'));
    try {
      writeFileSync(path.join(dir, 'preload.mjs'), preload);
      const out = path.join(dir, 'loaded.json');
      const result = spawnSync(
        process.execPath,
        [
          '--import',
          pathToFileURL(path.join(dir, 'preload.mjs')).href,
          binPath,
          'validate',
          // Word letters: fflate, which stays installed, is loaded to read them.
          'examples/word-offer-letters.yaml',
        ],
        { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LOADED_OUT: out } },
      );
      expect(result.status, result.stderr).toBe(0);
      const fromNodeModules = (JSON.parse(readFileSync(out, 'utf8')) as string[])
        .map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1])
        .filter((name): name is string => name !== undefined);
      // What validate needs beyond the inlined ones is still loaded as installed (fflate, for the letters).
      expect(fromNodeModules).toContain('fflate');
      expect([...new Set(fromNodeModules.filter((name) => inlined.has(packageOf(name))))]).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
