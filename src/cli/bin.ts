#!/usr/bin/env node
import { main } from './main.js';
import { leanHeap } from './lean-heap.js';

// A heap setting is the process's, so the process's owner sets it, not the
// command (which also runs inside a library's or a test's process): for a
// `run`, before validation, whose full collections set the heap's first limits.
if (process.argv[2] === 'run') leanHeap();

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`signrun: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
