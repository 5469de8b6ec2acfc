import type { ApiRequest, Send } from './api-request.js';
import type { RateLimitInfo } from './rate-limit.js';
import type { Timing } from './timing.js';

/** Shared view of the last rate-limit headers, written by fetch-once, read by the throttle. */
export interface RateLimitState {
  last?: RateLimitInfo;
}

/**
 * The throttle layer: when the service said that no call is left in the
 * hourly window (`x-ratelimit-remaining: 0`), new calls wait until the
 * window resets — at most `maxWaitMs` (default 60 000), after which they go
 * and let the service refuse them (the retry layer then decides).
 */
export function withThrottle(next: Send, state: RateLimitState, timing: Timing, maxWaitMs = 60_000): Send {
  return async (request: ApiRequest) => {
    const last = state.last;
    if (last?.remaining === 0 && last.resetAt) {
      const wait = Date.parse(last.resetAt) - timing.now();
      if (wait > 0 && wait <= maxWaitMs) await timing.delay(wait, request.signal);
    }
    return next(request);
  };
}
