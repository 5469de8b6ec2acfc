import { ApiError } from '../http/api-error.js';
import type { Clock } from '../clock.js';
import type { ApiLimiter } from './api-limiter.js';

/** DocuSign's burst window: 30 seconds ("API resource limits", developers.docusign.com). */
export const defaultBurstWindowSeconds = 30;

/** The burst figures of one call, for the x-burstlimit-* headers. */
export interface BurstState {
  /** Calls allowed per window. */
  limit: number;
  /** Calls left in this window (0 when refused). */
  remaining: number;
  /** Epoch seconds when this window ends and the count resets. */
  reset: number;
  /** False when the call is over the limit. */
  allowed: boolean;
}

/**
 * DocuSign's burst limit: at most `limit` API calls per account in a
 * 30-second window (DocuSign: 500 in production, 200 in its demo
 * environment), beside the hourly limit. Fixed windows aligned on the epoch,
 * as the sandbox's hourly limit aligns on the clock hour; counted in memory
 * (a restart forgives). Refused calls are not counted.
 */
export interface BurstLimit {
  /** Undefined when no burst limit is configured. */
  check(accountId: string): BurstState | undefined;
}

/** Options of `createBurstLimit`. */
export interface BurstLimitOptions {
  /** Window length in seconds. Default 30 (DocuSign's). */
  windowSeconds?: number;
}

export function createBurstLimit(limit: number | undefined, clock: Clock, options: BurstLimitOptions = {}): BurstLimit {
  const windowMs = (options.windowSeconds ?? defaultBurstWindowSeconds) * 1000;
  const counts = new Map<string, { window: number; count: number }>();
  return {
    check(accountId) {
      if (limit === undefined) return undefined;
      const window = Math.floor(clock.now() / windowMs);
      let entry = counts.get(accountId);
      if (!entry || entry.window !== window) {
        entry = { window, count: 0 };
        counts.set(accountId, entry);
      }
      const reset = Math.ceil(((window + 1) * windowMs) / 1000);
      if (entry.count >= limit) return { limit, remaining: 0, reset, allowed: false };
      entry.count += 1;
      return { limit, remaining: limit - entry.count, reset, allowed: true };
    },
  };
}

/** Options of `burstLimiter`. */
export interface BurstLimiterOptions {
  /**
   * How a call over the limit is refused; DocuSign does both, so the sandbox
   * can imitate either: `400` (default) answers HTTP 400 with errorCode
   * BURST_APIINVOCATION_LIMIT_EXCEEDED, the way DocuSign answers its limit
   * errors in the body (the sandbox's hourly limit answers 429, so a client
   * meets both ways); `429` answers 429 Too Many Requests with the same code.
   * Both carry Retry-After (seconds until the window resets).
   */
  refuseWith?: 400 | 429;
  /** Injected clock for Retry-After; default: the limit's own window end minus now. */
  clock?: Clock;
}

/**
 * The burst limit as an ApiLimiter (services.limiters): adds
 * `x-burstlimit-limit`, `x-burstlimit-remaining` and `x-burstlimit-reset`
 * (epoch seconds, like x-ratelimit-reset) to every authenticated API answer,
 * and refuses calls over the limit. Without a configured limit it adds
 * nothing.
 */
export function burstLimiter(burst: BurstLimit, options: BurstLimiterOptions = {}): ApiLimiter {
  const refuseWith = options.refuseWith ?? 400;
  return {
    check(accountId) {
      const state = burst.check(accountId);
      if (!state) return { headers: {} };
      const headers: Record<string, string> = {
        'x-burstlimit-limit': String(state.limit),
        'x-burstlimit-remaining': String(state.remaining),
        'x-burstlimit-reset': String(state.reset),
      };
      if (state.allowed) return { headers };
      const nowMs = options.clock?.now() ?? Date.now();
      headers['retry-after'] = String(Math.max(1, state.reset - Math.floor(nowMs / 1000)));
      return {
        headers,
        refuse: new ApiError(
          refuseWith,
          'BURST_APIINVOCATION_LIMIT_EXCEEDED',
          `The maximum number of API invocations in a burst has been exceeded. Burst limit is ${state.limit} calls; it resets at ${new Date(state.reset * 1000).toISOString()}.`,
        ),
      };
    },
  };
}
