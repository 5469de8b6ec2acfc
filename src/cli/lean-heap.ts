import v8 from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';

/**
 * Old-generation growth allowed between two full garbage collections, in
 * percent of what survived the last one. V8's own factor goes up to 4× on a
 * machine with a large heap limit (heap-controller.cc, MaxGrowingFactor), so
 * a run's peak memory followed the size of its job model rather than what it
 * still needs: 170 MB at 10,000 envelopes against 114 MB at 1,000. At 1.5×
 * it is 135 MB, for a full collection every few seconds (10–15 ms each at
 * 10,000 envelopes): no change in throughput (BENCHMARKS.md, Run).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * The young generation's largest semi-space, MiB. Node 20 lets it grow to
 * 16 (two of them: 32 MiB resident once a run has touched them), a sixth
 * of a 100,000-envelope run's peak; a run's garbage is short-lived (each
 * envelope's requests), and 4 MiB collected it for the same CPU at 10,000
 * envelopes (BENCHMARKS.md, Run, s49-memory).
 */
export const YOUNG_SEMI_SPACE_MIB = 4;

/**
 * Keeps the heap of a long `signrun run` near what is live: V8's
 * `--heap-growing-percent`, read whenever a full collection sets the next
 * limit, so it applies from here on (validation and the run); and the young
 * generation held at {@link YOUNG_SEMI_SPACE_MIB}. The process is the CLI's
 * own; where a flag is unknown or frozen nothing changes.
 */
export function leanHeap(percent: number = HEAP_GROWING_PERCENT, semiSpaceMiB: number = YOUNG_SEMI_SPACE_MIB): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  capYoungGeneration(semiSpaceMiB);
}

/**
 * `--max-semi-space-size` is read only when the heap is made, but V8 reads
 * `--semi-space-growth-factor` each time the young generation grows (it
 * doubles, from 1 MiB): once a collection shows it at the cap, growth
 * stops there. Collections are seen a little after they happen, so a burst
 * of them may take it one step further; never past V8's own maximum.
 */
function capYoungGeneration(semiSpaceMiB: number): void {
  // The new space's size counts both of its semi-spaces.
  const cap = 2 * semiSpaceMiB * 2 ** 20;
  const newSpaceSize = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
  };
  // V8 sets the growth factor back to at least 2 (a process-wide flag) when it configures a new isolate's
  // heap: each worker thread (validation's document readers, jobs/document-text.ts and pdf-facts-reader.ts)
  // would let this thread's young generation grow again to 2 x 16 MiB (+30 MB at a run's peak with one
  // thread started, BENCHMARKS "s50-writer"). Once the worker's isolate is up, the cap is set again.
  process.on('worker', (worker) => {
    worker.once('online', () => {
      if (stopped) stop();
    });
  });
  if (newSpaceSize() >= cap) return stop();
  const observer = new PerformanceObserver(() => {
    if (newSpaceSize() < cap) return;
    stop();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
