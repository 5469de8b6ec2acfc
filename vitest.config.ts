import { defineConfig } from 'vitest/config';

// Tests spawn the built CLI (dist/), so `npm test` builds first. Servers in
// tests listen on 127.0.0.1 with port 0; nothing leaves the machine.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep parallel test files to two so timings stay sane.
    maxWorkers: 2,
  },
});
