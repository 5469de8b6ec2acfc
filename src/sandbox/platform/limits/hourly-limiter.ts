import { ApiError } from '../http/api-error.js';
import type { ApiLimiter } from './api-limiter.js';
import type { HourlyLimit } from './hourly-limit.js';

/**
 * The hourly limit as an ApiLimiter: DocuSign's x-ratelimit-limit /
 * -remaining / -reset headers (reset in epoch seconds), and 429
 * HOURLY_APIINVOCATION_LIMIT_EXCEEDED once the hour's calls are spent.
 * Without a configured limit it adds nothing.
 */
export function hourlyLimiter(limit: HourlyLimit): ApiLimiter {
  return {
    check(accountId) {
      const state = limit.check(accountId);
      if (!state) return { headers: {} };
      const headers = {
        'x-ratelimit-limit': String(state.limit),
        'x-ratelimit-remaining': String(state.remaining),
        'x-ratelimit-reset': String(state.reset),
      };
      if (state.allowed) return { headers };
      return {
        headers,
        refuse: new ApiError(
          429,
          'HOURLY_APIINVOCATION_LIMIT_EXCEEDED',
          `The maximum number of hourly API invocations has been exceeded. Hourly limit is ${state.limit}; it resets at ${new Date(state.reset * 1000).toISOString()}.`,
        ),
      };
    },
  };
}
