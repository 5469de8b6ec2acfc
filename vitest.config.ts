import { defineConfig } from 'vitest/config';
import { endToEndTestFiles } from './test/test-kinds.js';

// Two projects (issue 10, item 7): `unit` runs in one process, in seconds;
// `e2e` spawns the built CLI (dist/, so `npm test` and `npm run test:e2e`
// build first), listens on 127.0.0.1 port 0 (nothing leaves the machine) or
// drives a browser. test/test-kinds.ts decides which is which from what a
// test calls, so a new test lands in the right project without a list.
const e2e = endToEndTestFiles(import.meta.dirname);
// Test files share their worker's module graph (isolate: false): each file
// no longer imports src/ afresh, which was half of the unit project's CPU
// (side by side, one run each: 64 s of CPU with isolation, 34 s without).
// Since issue 38 the e2e files run the CLI in-process too (runCli), so the
// same holds for them: a sandbox, the CLI's commands, fastify and pdf.js are
// loaded once per worker instead of once per file. No test changes
// process.env, the working folder, globals or module mocks, and each closes
// what it starts, so nothing is carried from one file to the next.

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep parallel test files to two so timings stay sane.
    maxWorkers: 2,
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: e2e } },
      { extends: true, test: { name: 'e2e', include: e2e.length > 0 ? e2e : ['no-e2e-tests'] } },
    ],
  },
});
