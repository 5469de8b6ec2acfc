import { defineConfig } from 'vitest/config';
import { endToEndTestFiles } from './test/test-kinds.js';

// Two projects (issue 10, item 7): `unit` runs in one process, in seconds;
// `e2e` spawns the built CLI (dist/, so `npm test` and `npm run test:e2e`
// build first), listens on 127.0.0.1 port 0 (nothing leaves the machine) or
// drives a browser. test/test-kinds.ts decides which is which from what a
// test calls, so a new test lands in the right project without a list.
const e2e = endToEndTestFiles(import.meta.dirname);
// Unit test files share their worker's module graph (isolate: false): each
// file no longer imports src/ afresh, which was half of the unit project's
// CPU (side by side, one run each: 64 s of CPU with isolation, 34 s without;
// every unit test passes either way, and none keeps state across files).

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep parallel test files to two so timings stay sane.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: e2e, isolate: false } },
      { extends: true, test: { name: 'e2e', include: e2e.length > 0 ? e2e : ['no-e2e-tests'] } },
    ],
  },
});
