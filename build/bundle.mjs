// `npm run build`'s second step: dist/cli/bin.js, as tsc wrote it (one file
// a module, ~370 of them for a `run`), becomes about 85 chunks in dist/cli/
// (split at the lazy `import()`s, so a command still loads only what it uses).
// Node 20 spends more than half of a command's start-up finding, reading and
// compiling modules one by one; a bundled `run` of one envelope costs about
// 0.8 of the CPU (BENCHMARKS "s46-speed-runner"). The plain-JavaScript
// packages a command loads at start go in too (build/inlined-packages.mjs: ~165 CommonJS
// files of yaml, fast-glob, commander… for a `run`; BENCHMARKS "s47-startup");
// every other package stays external (node_modules as installed, found from
// each chunk with createRequire/import). tsc's files stay where they were: worker
// scripts, schemas and package.json are found from a module's own
// `import.meta.url`, which each bundled module keeps (rewritten to its file
// in dist/), so nothing in src/ knows it was bundled.
import { readdirSync, rmSync, chmodSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { inlined, packageOf } from './inlined-packages.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'cli');
const entry = join(outDir, 'bin.js');
const chunkPrefix = 'bundled-';

const keepOwnUrl = {
  name: 'keep-own-import-meta-url',
  transform(code, id) {
    // rolldown's own runtime (\0…) asks for the chunk's URL as it is; packages inlined do not use theirs.
    if (id.startsWith('\0') || !code.includes('import.meta.url')) return null;
    const own = relative(outDir, id).split(sep).join('/');
    const spec = own.startsWith('.') ? own : `./${own}`;
    return {
      code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(spec)}, import.meta.url).href`),
      map: null,
    };
  },
};


for (const name of readdirSync(outDir)) if (name.startsWith(chunkPrefix)) rmSync(join(outDir, name));
const bundle = await rolldown({
  input: entry,
  platform: 'node',
  // signrun's own modules go in, and the plain-JavaScript packages a command loads at start (inlined-packages.mjs);
  // every other package is loaded as installed.
  external: (id, importer) =>
    importer !== undefined &&
    !id.startsWith('.') &&
    !id.startsWith('/') &&
    !id.startsWith('\0') &&
    !inlined.has(packageOf(id)),
  plugins: [keepOwnUrl],
  logLevel: 'warn',
});
await bundle.write({
  dir: outDir,
  format: 'esm',
  entryFileNames: 'bin.js',
  chunkFileNames: `${chunkPrefix}[name]-[hash].js`,
  sourcemap: false,
});
await bundle.close();
chmodSync(entry, 0o755);
