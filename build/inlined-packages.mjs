// Packages a command loads before its first request (a `run`: ~165 CommonJS files of yaml, fast-glob,
// commander, cosmiconfig…), read and compiled one file at a time otherwise. Plain JavaScript only, with no
// files of their own read at run time: native addons, worker scripts and packages that read files beside
// them stay external. Each stays a dependency in package.json (installed with its licence).
export const inlined = new Set([
  'yaml',
  'fast-glob', '@nodelib/fs.stat', '@nodelib/fs.scandir', '@nodelib/fs.walk', 'micromatch', 'picomatch', 'braces',
  'fill-range', 'to-regex-range', 'is-number', 'glob-parent', 'is-glob', 'is-extglob', 'merge2', 'fastq', 'reusify',
  'run-parallel', 'queue-microtask',
  'commander', 'cosmiconfig', 'env-paths',
  'csv-parse', 'csv-stringify',
  'node-fetch', 'fetch-blob', 'formdata-polyfill', 'data-uri-to-buffer', 'node-domexception',
  'p-queue', 'eventemitter3', 'p-timeout', 'p-limit', 'yocto-queue', 'picocolors',
  'd3-scale', 'd3-array', 'd3-format', 'd3-interpolate', 'd3-time', 'd3-time-format', 'd3-color', 'internmap',
]);
/** The package a bare import names: `a` of `a/b`, `@s/a` of `@s/a/b`. */
export const packageOf = (id) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/');
