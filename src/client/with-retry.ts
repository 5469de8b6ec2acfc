import { isIdempotent, type ApiRequest, type ClientEvent, type Send } from './api-request.js';
import { ClientHttpError, ClientNetworkError } from './client-errors.js';
import { AttemptBudget, retryDelay, type RetryPolicy } from './retry-policy.js';
import type { Timing } from './timing.js';
import { pathOf } from './redact.js';
import { classifyServiceError } from './service-error-classes.js';

/**
 * The retry layer, signrun's one retry owner: wraps `next` and repeats a
 * failed call per `policy`, waiting what the service asked for (Retry-After,
 * x-ratelimit-reset) or the backoff of {@link retryDelay}. A call the service
 * may have acted on is repeated only when the request is idempotent. Every
 * attempt is taken from the operation's {@link AttemptBudget}, so the
 * operation's requests on the wire never exceed `policy.limit`.
 */
export function withRetry(
  next: Send,
  policy: RetryPolicy,
  timing: Timing,
  onEvent?: (event: ClientEvent) => void,
): Send {
  return async (request: ApiRequest) => {
    const attempts = request.attempts ?? new AttemptBudget(policy.limit);
    for (;;) {
      const attempt = attempts.take();
      try {
        return await next(request);
      } catch (error) {
        attempts.failed(error);
        const decision = shouldRetry(error, request, policy);
        if (!decision || attempts.left === 0 || request.signal?.aborted) throw error;
        const serverDelay = error instanceof ClientHttpError ? error.retryAfterMs : undefined;
        if (serverDelay !== undefined && serverDelay > policy.maxRetryAfterMs) throw error;
        const delayMs = retryDelay(policy, attempt, serverDelay, timing.random);
        onEvent?.({
          type: 'retry',
          operation: request.operation,
          method: request.method,
          path: pathOf(request.url),
          retry: attempt,
          delayMs,
          reason: decision,
          ...(request.tag === undefined ? {} : { tag: request.tag }),
        });
        await timing.delay(delayMs, request.signal);
      }
    }
  };
}

/**
 * Why the call may be retried (`status 503`, `errorCode BURST_…`, `network
 * ECONNRESET`), or undefined when it may not: the class comes from
 * classifyServiceError (one table for the whole program).
 */
export function shouldRetry(error: unknown, request: ApiRequest, _policy: RetryPolicy): string | undefined {
  if (error instanceof ClientHttpError) {
    const verdict = classifyServiceError({
      status: error.status,
      ...(error.serviceErrorCode ? { errorCode: error.serviceErrorCode } : {}),
    });
    if (verdict.class === 'never-retry') return undefined;
    if (verdict.class === 'retry-now' && !isIdempotent(request)) return undefined;
    return verdict.decidedBy;
  }
  if (error instanceof ClientNetworkError) {
    if (error.maybeProcessed && !isIdempotent(request)) return undefined;
    return `network ${error.systemCode ?? 'error'}`;
  }
  return undefined;
}
