// `npm run build`'s second step: dist/cli/bin.js, as tsc wrote it (one file
// a module, ~370 of them for a `run`), becomes about 85 chunks in dist/cli/
// (split at the lazy `import()`s, so a command still loads only what it uses).
// Node 20 spends more than half of a command's start-up finding, reading and
// compiling modules one by one; a bundled `run` of one envelope costs about
// 0.8 of the CPU (BENCHMARKS "s46-speed-runner"). Packages stay external
// (node_modules as installed), and tsc's files stay where they were: worker
// scripts, schemas and package.json are found from a module's own
// `import.meta.url`, which each bundled module keeps (rewritten to its file
// in dist/), so nothing in src/ knows it was bundled.
import { readdirSync, rmSync, chmodSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'cli');
const entry = join(outDir, 'bin.js');
const chunkPrefix = 'bundled-';

const keepOwnUrl = {
  name: 'keep-own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta.url')) return null;
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
  // Only signrun's own modules (relative imports) go in; packages are loaded as installed.
  external: (id, importer) =>
    importer !== undefined && !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
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
