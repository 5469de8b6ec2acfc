import { describe, expect, it } from 'vitest';
import { scheduleLazily } from '../../src/runner/schedule.js';

describe('scheduleLazily', () => {
  it('keeps at most `concurrency` tasks alive and pulls items only as slots free up', async () => {
    let pulled = 0;
    let running = 0;
    let peakRunning = 0;
    let peakAhead = 0;
    let finished = 0;
    function* items() {
      for (let i = 0; i < 10_000; i += 1) {
        pulled += 1;
        peakAhead = Math.max(peakAhead, pulled - finished);
        yield i;
      }
    }
    const started = await scheduleLazily(
      items(),
      16,
      async () => {
        running += 1;
        peakRunning = Math.max(peakRunning, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        finished += 1;
      },
      () => false,
    );
    expect(started).toBe(10_000);
    expect(finished).toBe(10_000);
    expect(peakRunning).toBe(16);
    // Never more than concurrency (+1 being handed over) items pulled but not finished.
    expect(peakAhead).toBeLessThanOrEqual(17);
  });

  it('widens the bound from the item that asks it, and never narrows it', async () => {
    const started: number[] = [];
    // A barrier: every task waits until the test lets all go, so the bound alone decides how many start.
    let go = () => {};
    const gate = new Promise<void>((resolve) => (go = resolve));
    const done = scheduleLazily(
      Array.from({ length: 8 }, (_, i) => i),
      2,
      async (i) => {
        started.push(i);
        await gate;
      },
      () => false,
      // Item 2 asks for four at once; item 3 and those after ask for one, which narrows nothing.
      (i) => (i === 2 ? 4 : 1),
    );
    for (let k = 0; k < 20; k++) await new Promise((resolve) => setImmediate(resolve));
    // Without the widening only items 0 and 1 would have started; narrowed again, not item 3.
    expect(started).toEqual([0, 1, 2, 3]);
    go();
    expect(await done).toBe(8);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts nothing new once told to stop, and lets work in flight finish', async () => {
    let finished = 0;
    let stop = false;
    const started = await scheduleLazily(
      Array.from({ length: 100 }, (_, i) => i),
      4,
      async (i) => {
        if (i === 5) stop = true;
        // Yield to the event loop as real work does, so others are in flight when stop comes.
        await new Promise((resolve) => setImmediate(resolve));
        finished += 1;
      },
      () => stop,
    );
    expect(started).toBeLessThan(100);
    expect(started).toBeGreaterThanOrEqual(6);
    expect(finished).toBe(started);
  });

  it('when a work fails: starts nothing new, lets work in flight finish, then throws the first failure', async () => {
    let finished = 0;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let started = 0;
      const outcome = await scheduleLazily(
        Array.from({ length: 100 }, (_, i) => i),
        4,
        async (i) => {
          started += 1;
          await new Promise((resolve) => setImmediate(resolve));
          if (i === 5 || i === 6) throw new Error(`item ${i} failed`);
          finished += 1;
        },
        () => false,
      ).catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toBe('item 5 failed');
      expect(started).toBeLessThan(100);
      // Every item started either finished or failed before the throw.
      expect(finished + 2).toBe(started);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
