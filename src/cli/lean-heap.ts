import v8 from 'node:v8';

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
 * Keeps the heap of a long `signrun run` near what is live: V8's
 * `--heap-growing-percent`, read whenever a full collection sets the next
 * limit, so it applies from here on (validation and the run). The process is
 * the CLI's own; where the flag is unknown or frozen nothing changes.
 */
export function leanHeap(percent: number = HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
