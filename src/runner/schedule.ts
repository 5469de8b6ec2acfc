import pLimit from 'p-limit';

/**
 * Runs `work` for every item of `items` with at most `concurrency` at once,
 * pulling items lazily: at most `concurrency` tasks exist at any moment
 * (10,000 envelopes are not 10,000 pending promises). When `shouldStop`
 * turns true no new item is started; those in flight finish. Returns how
 * many items were started.
 */
export async function scheduleLazily<T>(
  items: Iterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  shouldStop: () => boolean,
): Promise<number> {
  const limit = pLimit(concurrency);
  const inFlight = new Set<Promise<void>>();
  let started = 0;
  for (const item of items) {
    if (shouldStop()) break;
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (shouldStop()) break;
    started += 1;
    const task: Promise<void> = limit(() => work(item)).finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  return started;
}
