import pLimit from 'p-limit';

/**
 * Runs `work` for every item of `items` with at most `concurrency` at once
 * (p-limit, the one bound), pulling items lazily: an item is taken only when
 * a slot is about to be free, so at most `concurrency` tasks run and one
 * waits (10,000 envelopes are not 10,000 pending promises). When
 * `shouldStop` turns true no new item is started; those in flight finish.
 * When a `work` fails, likewise: nothing new starts, those in flight finish,
 * then the first failure is thrown (none is left unhandled, which would end
 * the process). Returns how many items were started.
 *
 * `concurrencyFrom(item)`, when given, may widen the bound as items are
 * taken (never narrow it): from that item on, that many run at once.
 */
export async function scheduleLazily<T>(
  items: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  shouldStop: () => boolean,
  concurrencyFrom?: (item: T) => number,
): Promise<number> {
  const limit = pLimit(concurrency);
  const tasks = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let started = 0;
  for await (const item of items) {
    if (failure || shouldStop()) break;
    const wider = concurrencyFrom?.(item) ?? 0;
    if (wider > limit.concurrency) limit.concurrency = wider;
    started += 1;
    const task = limit(() => work(item))
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => tasks.delete(task));
    tasks.add(task);
    // A task waits in p-limit's queue: wait for its turn (p-limit runs queued
    // calls in order) before taking the next item.
    if (limit.pendingCount > 0) await limit(() => undefined);
  }
  await Promise.all(tasks);
  if (failure) throw failure.error;
  return started;
}
