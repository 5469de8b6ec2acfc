import type { Readable } from 'node:stream';
import type { Auth } from './auth.js';
import type { RateLimitInfo } from './rate-limit.js';
import type { AttemptBudget } from './retry-policy.js';

/** One call to the service, as the layers (throttle → retry → fetch once) pass it down. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute URL. */
  url: string;
  auth: Auth;
  /** JSON body. */
  body?: unknown;
  /**
   * A body of bytes sent as they are (a brand's logo: DocuSign's
   * Brand_PutBrandLogoByType takes the image itself), instead of `body`.
   */
  bytes?: { data: Buffer; contentType: string };
  /** `json` (default): the body is parsed; `stream`: the body is handed over unread (downloads). */
  responseType?: 'json' | 'stream';
  /** Name of the client operation, for events and errors (`createEnvelope`). */
  operation: string;
  /**
   * True when repeating the call cannot do harm (reads, deletes, signing
   * views). Default: true for GET, PUT, DELETE; false for POST.
   */
  idempotent?: boolean;
  /** Opaque label copied into events (the runner puts `<job>/<key>`). */
  tag?: string;
  /**
   * When every connection is busy, waiting requests go out highest priority
   * first, then in the order they came (with-request-slots.ts). Default 0.
   */
  priority?: number;
  signal?: AbortSignal;
  /** The operation's attempts, when it spans several requests; default a budget of the policy's limit for this request alone. */
  attempts?: AttemptBudget;
}

/** A 2xx answer. */
export interface ApiResponse {
  status: number;
  headers: { get(name: string): string | null };
  /** Parsed JSON (responseType json); undefined for an empty body. */
  json?: unknown;
  /** The body (responseType stream). */
  stream?: Readable;
  rateLimit?: RateLimitInfo;
}

/** A layer of the request pipeline. */
export type Send = (request: ApiRequest) => Promise<ApiResponse>;

/** What the client reports as it works; the runner turns these into run events. */
export type ClientEvent =
  | {
      type: 'request';
      operation: string;
      method: string;
      path: string;
      /** Status of the answer; undefined on a network error. */
      status?: number;
      durationMs: number;
      tag?: string;
      rateLimit?: RateLimitInfo;
    }
  | {
      type: 'retry';
      operation: string;
      method: string;
      path: string;
      /** The retry about to be made: 1 for the first retry. */
      retry: number;
      delayMs: number;
      /** `status 503`, `network ECONNRESET` … */
      reason: string;
      tag?: string;
    };

export function isIdempotent(request: ApiRequest): boolean {
  return request.idempotent ?? request.method !== 'POST';
}
