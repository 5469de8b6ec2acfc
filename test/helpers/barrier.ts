import type { EventEmitter } from 'node:events';

/**
 * Barriers for tests: wait for a condition to hold, re-checked when the
 * thing awaited says something changed, never by polling or sleeping. A
 * wait that never ends is cut by vitest's test timeout.
 */

/** Resolves once `check()` holds: now, or after one of `emitter`'s `event`s. */
export function whenEmitted(emitter: EventEmitter, event: string, check: () => boolean): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const listener = () => {
      let done: boolean;
      try {
        done = check();
      } catch (error) {
        emitter.off(event, listener);
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (done) {
        emitter.off(event, listener);
        resolve();
      }
    };
    emitter.on(event, listener);
  });
}

/**
 * For state a test records itself (a receiver's requests, callback calls,
 * lines read from a child): `changed()` after each change wakes the
 * `until()`s whose condition now holds.
 */
export class Changes {
  readonly #waiting = new Set<{ check: () => boolean; resolve: () => void }>();

  changed(): void {
    for (const waiter of [...this.#waiting]) {
      if (!waiter.check()) continue;
      this.#waiting.delete(waiter);
      waiter.resolve();
    }
  }

  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.add({ check, resolve }));
  }
}
