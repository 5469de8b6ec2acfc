import { defineConfig } from 'vitest/config';
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { endToEndTestFiles } from './test/test-kinds.js';

// Two projects (issue 10, item 7): `unit` runs in one process, in seconds;
// `e2e` spawns the built CLI (dist/, so `npm test` and `npm run test:e2e`
// build first), listens on 127.0.0.1 port 0 (nothing leaves the machine) or
// drives a browser. test/test-kinds.ts decides which is which from what a
// test calls, so a new test lands in the right project without a list.
const e2e = endToEndTestFiles(import.meta.dirname);
// Test files share their worker's module graph (isolate: false): each file
// no longer imports src/, fastify, pdf.js and playwright afresh, which was
// half of the unit project's CPU (side by side, one run each: 64 s of CPU
// with isolation, 34 s without) and 172 s of the whole suite's 527 s
// ("import" in vitest's summary, 63da93f). No test file keeps state across
// files: no vi.mock/spyOn/stubEnv, no process.env writes, sandboxes and
// browsers closed in afterAll. (The e2e files once failed shared: auth-jwt's
// sandbox clock was read once at load, and fell over a minute behind the
// clock its assertions were issued by on a busy machine; it now follows the
// real clock with an offset.)
//
// The split is made only when a run asks for a project (`--project unit`,
// `npm run test:unit`, `npm run test:e2e`). A whole run (`npm test`, `npx
// vitest run [files]`) is one project: each project has its own module
// graph, transformed by its own Vite server and imported by its own
// workers, so two projects transformed src/ twice and each worker imported
// it twice (once for its e2e files, once for its unit files). Side by side
// on 20 files, 12 unit and 8 e2e (s48-suite, BENCHMARKS): 46-48 s of CPU as
// two projects, 34-40 s as one; every test the same.
const split = process.argv.some((arg) => arg === '--project' || arg.startsWith('--project='));

/**
 * End-to-end files first, then vitest's own order. As one project, a clean
 * clone (no timings cached) runs the largest files first, and the chaos
 * files, small but long, started in the last minute and kept one worker
 * busy after the other had finished (s48-suite, BENCHMARKS). Two projects
 * ran e2e first by the projects' names.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isE2e = (file: TestSpecification) =>
      e2eFiles.has(
        relative(import.meta.dirname, file.moduleId)
          .split(sep)
          .join('/'),
      );
    return [...sorted.filter(isE2e), ...sorted.filter((file) => !isE2e(file))];
  }
}
const e2eFiles = new Set(e2e);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep parallel test files to two so timings stay sane.
    maxWorkers: 2,
    isolate: false,
    sequence: { sequencer: EndToEndFirst },
    // One temp folder for the run, removed at its end (test/global-temp.ts).
    globalSetup: ['test/global-temp.ts'],
    ...(split
      ? {
          projects: [
            { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: e2e } },
            { extends: true, test: { name: 'e2e', include: e2e.length > 0 ? e2e : ['no-e2e-tests'] } },
          ],
        }
      : { include: ['test/**/*.test.ts'] }),
  },
});
