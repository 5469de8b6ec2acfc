#!/usr/bin/env node
import { main } from './main.js';
import { processIO } from './io.js';
import { debugWanted, reportInternalError } from './internal-error.js';
import { removeLiveTempFiles } from '../output/atomic-write.js';
import { leanHeap } from './lean-heap.js';

// An error no command caught (a callback's throw, a promise nobody awaited,
// a RangeError when memory runs out) ends the process as SR_INTERNAL, like
// one a command threw: the log's place and what to do, not Node's raw stack.
// Writes in flight will not finish, so their temp files go first.
const debug = debugWanted(process.argv, process.env);
const uncaught = (error: unknown) => {
  removeLiveTempFiles();
  reportInternalError(error, processIO(), debug);
  process.exit(1);
};
process.on('uncaughtException', uncaught);
process.on('unhandledRejection', uncaught);

// A heap setting is the process's, so the process's owner sets it, not the
// command (which also runs inside a library's or a test's process): for a
// `run`, before validation, whose full collections set the heap's first limits.
if (process.argv[2] === 'run') leanHeap();

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    reportInternalError(error, processIO(), debug);
    process.exitCode = 1;
  },
);
