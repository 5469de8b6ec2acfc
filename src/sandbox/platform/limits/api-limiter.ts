import type { ApiError } from '../http/api-error.js';

/** What a limiter says about one API call of an account. */
export interface LimitDecision {
  /** Headers to add to the answer (x-ratelimit-*, x-burstlimit-*). */
  headers: Record<string, string>;
  /** Present: refuse the call with this error (e.g. 429 HOURLY_APIINVOCATION_LIMIT_EXCEEDED). */
  refuse?: ApiError;
}

/**
 * One limit applied to authenticated API calls, per account, in order
 * (services.limiters). The hourly limit is one; a burst limit or fault
 * injection can be added beside it without touching the routes.
 */
export interface ApiLimiter {
  check(accountId: string): LimitDecision;
}
