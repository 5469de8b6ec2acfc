/**
 * How the client retries a call: typed, documented data (as ky's retry
 * options are). *Whether* a failure may be retried comes from one table,
 * src/client/service-error-classes.ts (`classifyServiceError`): `retry-later`
 * (rate limits, whether answered 429 or 400 with DocuSign's
 * *_LIMIT_EXCEEDED codes) proves the service did nothing, so any call may be
 * repeated after the delay the service gives; `retry-now` (5xx, a broken
 * connection) may follow a call the service acted on, so only requests marked
 * idempotent are repeated — never envelope creation, so a contract is never
 * sent twice by a blind retry; `never-retry` is final.
 */
export interface RetryPolicy {
  /**
   * Attempts in all for one operation (one client call, a download with its
   * restarts included), the first included: the most requests the operation
   * puts on the wire. Default 4.
   */
  limit: number;
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
  maxRetryAfterMs: 60_000,
  backoffBaseMs: 250,
  backoffLimitMs: 8_000,
  jitter: 'full',
});

/**
 * The wire attempts of one operation. Every loop that repeats a call — the
 * retry layer, a download started again after its body broke off, a caller
 * that passes the same budget to several calls of one operation — draws from
 * it, so loops stacked on each other cannot multiply their limits (a download
 * restarted 4 times, each request retried 4 times, was 16 requests).
 */
export class AttemptBudget {
  readonly limit: number;
  #used = 0;
  #lastError: Error | undefined;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Attempts made so far. */
  get used(): number {
    return this.#used;
  }

  /** Attempts left. */
  get left(): number {
    return Math.max(0, this.limit - this.#used);
  }

  /**
   * Takes one attempt before a request goes on the wire. When none is left it
   * throws the failure that spent the last one: the operation ends with the
   * error that ended it.
   */
  take(): number {
    if (this.#used >= this.limit) throw this.#lastError ?? new Error(`no attempts left (limit ${this.limit})`);
    this.#used += 1;
    return this.#used;
  }

  /** Remembers the failure of the attempt just made (see {@link take}). */
  failed(error: unknown): void {
    this.#lastError = error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * The one backoff formula of signrun: the delay before retry number
 * `attempt` (1 = the first retry). A delay the
 * service asked for (`serverDelayMs`) wins over backoff when it is longer.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  serverDelayMs: number | undefined,
  random: () => number,
): number {
  const backoff = Math.min(policy.backoffLimitMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = policy.jitter === 'full' ? Math.floor(random() * backoff) : backoff;
  return serverDelayMs === undefined ? jittered : Math.max(serverDelayMs, jittered);
}
