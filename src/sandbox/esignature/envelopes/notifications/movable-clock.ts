import type { Clock } from '../../../platform/clock.js';

/** A clock that can be moved forward: for tests of reminders and expiration (`POST /sandbox/clock`). */
export interface MovableClock extends Clock {
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
}

/** The real time plus an offset that only grows. */
export function movableClock(base: Clock = { now: () => Date.now() }): MovableClock {
  let offset = 0;
  return {
    now: () => base.now() + offset,
    advance(ms: number) {
      if (ms > 0) offset += ms;
    },
  };
}

/** True when the sandbox's clock can be moved. */
export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).advance === 'function';
}
