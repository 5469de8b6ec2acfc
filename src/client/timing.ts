/**
 * The time base of the client: injectable so that retry and rate-limit tests
 * run in milliseconds and assert the delays that were asked for.
 */
export interface Timing {
  /** Milliseconds since the epoch. Default Date.now. */
  now: () => number;
  /** Waits `ms`; rejects with the signal's reason when it is aborted. Default a real timer. */
  delay: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for jitter. Default Math.random. */
  random: () => number;
}

export const realTiming: Timing = {
  now: () => Date.now(),
  delay: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  random: () => Math.random(),
};

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('aborted');
}
