import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { FetchError, type Response } from 'node-fetch';
import { fetchWithinOrigin } from './credential-destinations.js';
import { authHeaders } from './auth.js';
import type { ApiRequest, ApiResponse, ClientEvent, Send } from './api-request.js';
import { ClientBadResponseError, ClientHttpError, ClientNetworkError } from './client-errors.js';
import { readRateLimit, type RateLimitInfo } from './rate-limit.js';
import { parseRateLimitReset, parseRetryAfter } from './retry-after.js';
import { pathOf } from './redact.js';
import type { Timing } from './timing.js';
import { classifyServiceError } from './service-error-classes.js';
import { SignrunError } from '../errors/signrun-error.js';

/** Options of the innermost layer. */
export interface FetchOnceOptions {
  /** Connections per origin, hence requests in flight at once (the agent queues the rest). Default 32. */
  maxSockets?: number;
  /** Called after every call that reached (or tried to reach) the wire. */
  onEvent?: (event: ClientEvent) => void;
  /** Called with the rate-limit headers of every response that has them. */
  onRateLimit?: (info: RateLimitInfo) => void;
  /** Secret values to scrub from service messages (the client adds its own auth secrets). */
  secrets?: () => readonly string[];
  timing: Timing;
  /** Sent as User-Agent. Default `signrun`. */
  userAgent?: string;
}

/** System error codes that prove the request never reached the service. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The only layer that touches the network: one HTTP call with node-fetch over
 * one keep-alive connection pool, rate-limit headers read on every answer,
 * non-2xx turned into a redacted ClientHttpError.
 */
export function createFetchOnce(options: FetchOnceOptions): { send: Send; close(): void } {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 32 };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const agent = (url: URL) => (url.protocol === 'http:' ? httpAgent : httpsAgent);

  const send: Send = async (request: ApiRequest): Promise<ApiResponse> => {
    const path = pathOf(request.url);
    const started = options.timing.now();
    const headers: Record<string, string> = {
      Accept: request.responseType === 'stream' ? '*/*' : 'application/json',
      'User-Agent': options.userAgent ?? 'signrun',
      ...authHeaders(request.auth),
    };
    if (request.bytes !== undefined) headers['Content-Type'] = request.bytes.contentType;
    else if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    const emit = (status: number | undefined, rateLimit?: RateLimitInfo) =>
      options.onEvent?.({
        type: 'request',
        operation: request.operation,
        method: request.method,
        path,
        status,
        durationMs: options.timing.now() - started,
        ...(request.tag === undefined ? {} : { tag: request.tag }),
        ...(rateLimit ? { rateLimit } : {}),
      });

    let response: Response;
    try {
      response = await fetchWithinOrigin({
        url: request.url,
        method: request.method,
        headers,
        ...(request.bytes !== undefined
          ? { body: request.bytes.data }
          : request.body === undefined
            ? {}
            : { body: JSON.stringify(request.body) }),
        agent,
        ...(request.signal ? { signal: request.signal } : {}),
        refusedCode: 'SR_HTTP_REDIRECT_REFUSED',
        shown: path,
        details: { operation: request.operation },
        badRedirect: (reason) =>
          new ClientBadResponseError({ method: request.method, path, operation: request.operation }, reason),
      });
    } catch (error) {
      if (error instanceof SignrunError) {
        emit(undefined);
        throw error;
      }
      emit(undefined);
      const systemCode = error instanceof FetchError ? (error.code ?? error.errno) : (error as { code?: string }).code;
      throw new ClientNetworkError({
        method: request.method,
        path,
        operation: request.operation,
        ...(systemCode ? { systemCode: String(systemCode) } : {}),
        reason: error instanceof Error ? error.name : 'error',
        maybeProcessed: !(systemCode && NOT_SENT.has(String(systemCode))),
      });
    }

    const rateLimit = readRateLimit(response.headers);
    if (rateLimit) options.onRateLimit?.(rateLimit);

    if (response.status < 200 || response.status > 299) {
      let text = '';
      try {
        text = await response.text();
      } catch {
        // the body broke off; the status is what matters
      }
      emit(response.status, rateLimit);
      let details: ErrorBody = {};
      try {
        details = JSON.parse(text) as typeof details;
      } catch {
        // not DocuSign's errorDetails: keep the status only
      }
      const now = options.timing.now();
      const errorCode = typeof details.errorCode === 'string' ? details.errorCode : undefined;
      // A rate limit says when to come back: Retry-After, else the reset of
      // the window that refused (x-burstlimit-reset for burst codes, else x-ratelimit-reset).
      const verdict = classifyServiceError({ status: response.status, ...(errorCode ? { errorCode } : {}) });
      const limited = verdict.class === 'retry-later';
      const burst = verdict.window === 'burst';
      const retryAfterMs =
        parseRetryAfter(response.headers.get('retry-after'), now) ??
        (limited
          ? (parseRateLimitReset(response.headers.get(burst ? 'x-burstlimit-reset' : 'x-ratelimit-reset'), now) ??
            parseRateLimitReset(response.headers.get(burst ? 'x-ratelimit-reset' : 'x-burstlimit-reset'), now))
          : undefined);
      throw new ClientHttpError(
        {
          method: request.method,
          path,
          operation: request.operation,
          status: response.status,
          ...(typeof details.errorCode === 'string' ? { serviceErrorCode: details.errorCode } : {}),
          ...serviceMessageOf(details),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        },
        [...secretsOf(request), ...(options.secrets?.() ?? [])],
      );
    }

    if (request.responseType === 'stream') {
      emit(response.status, rateLimit);
      return {
        status: response.status,
        headers: response.headers,
        stream: response.body as unknown as Readable,
        ...(rateLimit ? { rateLimit } : {}),
      };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      emit(response.status, rateLimit);
      const systemCode = (error as { code?: string }).code;
      throw new ClientNetworkError({
        method: request.method,
        path,
        operation: request.operation,
        ...(systemCode ? { systemCode } : {}),
        reason: 'the answer broke off',
        maybeProcessed: true,
      });
    }
    emit(response.status, rateLimit);
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        throw new ClientBadResponseError(
          { method: request.method, path, operation: request.operation },
          'the answer is not JSON',
        );
      }
    }
    return { status: response.status, headers: response.headers, json, ...(rateLimit ? { rateLimit } : {}) };
  };

  return {
    send,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/**
 * Values that must not come back in an error: the credentials of the call,
 * and every password or token the body carries (account creation sends the
 * distributor's and the new user's passwords; a service may echo them).
 */
function secretsOf(request: ApiRequest): string[] {
  const auth = request.auth;
  const found =
    auth.kind === 'bearer' ? [auth.accessToken.reveal()] : auth.kind === 'legacy' ? [auth.password.reveal()] : [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && /password|token|secret/i.test(key) && inner !== '') found.push(inner);
      else walk(inner, depth + 1);
    }
  };
  walk(request.body, 0);
  return found;
}

/** An error answer's body: eSignature's errorDetails ({errorCode, message}), or the Admin API's and OAuth's ErrorDetails ({error, error_description}). */
interface ErrorBody {
  errorCode?: unknown;
  message?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** The service's reason in an error body, of either shape. */
function serviceMessageOf(details: ErrorBody): { serviceMessage?: string } {
  if (typeof details.message === 'string') return { serviceMessage: details.message };
  if (typeof details.error_description !== 'string') return {};
  const parts = [details.error, details.error_description].filter((part) => typeof part === 'string');
  return { serviceMessage: parts.join(': ') };
}
