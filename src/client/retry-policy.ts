/**
 * When and how the client retries a call: typed, documented data (as ky's
 * retry options are). A refusal that proves the service did nothing (429,
 * connection refused) is retried for any method; an answer after which the
 * service may have acted (5xx, a connection broken mid-call) only for
 * requests marked idempotent — never for envelope creation, so a contract is
 * never sent twice by a blind retry.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. Default 4. */
  limit: number;
  /** Statuses that mean "try again": Default 408, 429, 500, 502, 503, 504. */
  statuses: readonly number[];
  /** Statuses that prove the call was not processed, so even non-idempotent calls may be retried. Default 429. */
  refusedStatuses: readonly number[];
  /** A Retry-After (or x-ratelimit-reset) longer than this ends the retries instead of waiting. Default 60 000 ms. */
  maxRetryAfterMs: number;
  /** First backoff delay; doubled on every attempt. Default 250 ms. */
  backoffBaseMs: number;
  /** Upper bound of one backoff delay. Default 8 000 ms. */
  backoffLimitMs: number;
  /** `full`: a random delay in [0, backoff] (AWS "full jitter"); `none`: exactly backoff. Default full. */
  jitter: 'full' | 'none';
}

/** The default policy (see each field for its value). */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  limit: 4,
  statuses: Object.freeze([408, 429, 500, 502, 503, 504]),
  refusedStatuses: Object.freeze([429]),
  maxRetryAfterMs: 60_000,
  backoffBaseMs: 250,
  backoffLimitMs: 8_000,
  jitter: 'full',
});

/**
 * The delay before retry number `attempt` (1 = the first retry). A delay the
 * service asked for (`serverDelayMs`) wins over backoff when it is longer.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, serverDelayMs: number | undefined, random: () => number): number {
  const backoff = Math.min(policy.backoffLimitMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = policy.jitter === 'full' ? Math.floor(random() * backoff) : backoff;
  return serverDelayMs === undefined ? jittered : Math.max(serverDelayMs, jittered);
}
