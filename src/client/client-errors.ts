import { SignrunError } from '../errors/signrun-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { redactText } from './redact.js';
import { classifyServiceError } from './service-error-classes.js';

/** What is known of the request that failed: never its headers or body. */
export interface FailedRequest {
  method: string;
  /** The URL path, without query string. */
  path: string;
  /** The client operation, e.g. `createEnvelope`. */
  operation: string;
}

/**
 * The service answered with an error status. Built redacted: it carries the
 * status, method, path, and DocuSign's `errorCode` and message
 * (`#/definitions/errorDetails`) with secrets removed — never the auth
 * header, the body sent, passwords, tokens or signing addresses.
 */
export class ClientHttpError extends SignrunError {
  readonly status: number;
  readonly request: FailedRequest;
  /** DocuSign's errorCode, e.g. `ENVELOPE_DOES_NOT_EXIST`, when the body had one. */
  readonly serviceErrorCode: string | undefined;
  readonly serviceMessage: string | undefined;
  /** Delay the service asked for (Retry-After or x-ratelimit-reset), ms. */
  readonly retryAfterMs: number | undefined;

  constructor(
    input: FailedRequest & {
      status: number;
      serviceErrorCode?: string;
      serviceMessage?: string;
      retryAfterMs?: number;
    },
    secrets: readonly string[] = [],
  ) {
    const serviceMessage = input.serviceMessage === undefined ? undefined : redactText(input.serviceMessage, secrets);
    // The SR code and hint come from the one DocuSign knowledge table, as the retry decision does.
    const verdict = classifyServiceError({
      status: input.status,
      ...(input.serviceErrorCode ? { errorCode: input.serviceErrorCode } : {}),
    });
    const code: ErrorCode = verdict.code;
    const what = [input.serviceErrorCode, serviceMessage].filter(Boolean).join(': ');
    super(code, `${input.method} ${input.path} answered ${input.status}${what ? ` ${what}` : ''}`, {
      ...(verdict.hint === undefined ? {} : { hint: verdict.hint }),
      details: {
        status: input.status,
        method: input.method,
        path: input.path,
        operation: input.operation,
        ...(input.serviceErrorCode ? { errorCode: input.serviceErrorCode } : {}),
      },
    });
    this.name = 'ClientHttpError';
    this.status = input.status;
    this.request = { method: input.method, path: input.path, operation: input.operation };
    this.serviceErrorCode = input.serviceErrorCode;
    this.serviceMessage = serviceMessage;
    this.retryAfterMs = input.retryAfterMs;
  }
}

/**
 * The service could not be reached or the connection broke. `maybeProcessed`
 * is false only when the request provably never left (connection refused,
 * name not resolved): then even a non-idempotent call may be retried.
 */
export class ClientNetworkError extends SignrunError {
  readonly request: FailedRequest;
  /** The system error code, e.g. ECONNRESET. */
  readonly systemCode: string | undefined;
  readonly maybeProcessed: boolean;

  constructor(input: FailedRequest & { systemCode?: string; reason: string; maybeProcessed: boolean }) {
    super('SR_HTTP_NETWORK', `${input.method} ${input.path} failed: ${input.systemCode ?? input.reason}`, {
      details: { method: input.method, path: input.path, operation: input.operation, systemCode: input.systemCode },
    });
    this.name = 'ClientNetworkError';
    this.request = { method: input.method, path: input.path, operation: input.operation };
    this.systemCode = input.systemCode;
    this.maybeProcessed = input.maybeProcessed;
  }
}

/** The answer was 2xx but could not be read. */
export class ClientBadResponseError extends SignrunError {
  constructor(request: FailedRequest, what: string) {
    super('SR_HTTP_BAD_RESPONSE', `${request.method} ${request.path}: ${what}`, { details: { ...request } });
    this.name = 'ClientBadResponseError';
  }
}

/**
 * Whether a failed call may still have done its work on the service: a
 * connection that broke after the request left (`reset-after`: committed,
 * answer lost), a 5xx or 408 (the service may have acted before failing), an
 * answer that came but could not be read. False when the service proves it
 * did nothing (a rate limit, a 4xx refusal) or the request never left.
 */
export function mayHaveActed(error: unknown): boolean {
  if (error instanceof ClientNetworkError) return error.maybeProcessed;
  if (error instanceof ClientBadResponseError) return true;
  if (error instanceof ClientHttpError) {
    const verdict = classifyServiceError({
      status: error.status,
      ...(error.serviceErrorCode ? { errorCode: error.serviceErrorCode } : {}),
    });
    return verdict.class === 'retry-now';
  }
  return false;
}
