import type { Clock } from '../clock.js';

/** The rate figures of one call, for the x-ratelimit-* headers. */
export interface RateState {
  /** Calls allowed per hour. */
  limit: number;
  /** Calls left in this hour (0 when refused). */
  remaining: number;
  /** Epoch seconds when the hour ends and the count resets. */
  reset: number;
  /** False when the call is over the limit (answer 429 HOURLY_APIINVOCATION_LIMIT_EXCEEDED). */
  allowed: boolean;
}

/**
 * DocuSign's hourly API call limit, per account, in fixed clock-hour windows
 * (DocuSign resets at the top of the hour; a test may shorten the window). Counted in memory: a restart
 * forgives. `check` returns undefined when no limit is configured.
 */
export interface HourlyLimit {
  check(accountId: string): RateState | undefined;
}

export function createHourlyLimit(limit: number | undefined, clock: Clock, windowSeconds = 3600): HourlyLimit {
  const counts = new Map<string, { window: number; count: number }>();
  return {
    check(accountId) {
      if (limit === undefined) return undefined;
      const window = Math.floor(clock.now() / (windowSeconds * 1000));
      let entry = counts.get(accountId);
      if (!entry || entry.window !== window) {
        entry = { window, count: 0 };
        counts.set(accountId, entry);
      }
      const reset = (window + 1) * windowSeconds;
      if (entry.count >= limit) return { limit, remaining: 0, reset, allowed: false };
      entry.count += 1;
      return { limit, remaining: limit - entry.count, reset, allowed: true };
    },
  };
}
