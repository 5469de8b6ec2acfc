/**
 * What a client should do after the service refused or failed a call.
 * - `retry-later`: the service is protecting itself (rate limits). Wait for
 *   the time it says (Retry-After, x-ratelimit-reset / x-burstlimit-reset) or
 *   the end of the window, then try again; nothing was done.
 * - `retry-now`: a transient failure (5xx, network). Retry with backoff and
 *   jitter — but a call that is not idempotent on the wire (envelope
 *   creation) only after the custom-field lookup shows it was not processed.
 * - `never-retry`: the request itself is wrong (validation, authentication,
 *   permissions, not found); the same call will fail the same way.
 */
export type ServiceErrorClass = 'retry-later' | 'retry-now' | 'never-retry';

/** One row of the table: a class and why, for reports and documentation. */
export interface ServiceErrorRule {
  class: ServiceErrorClass;
  /** What the code means, in a few words (DocuSign's documentation, paraphrased). */
  meaning: string;
}

/**
 * DocuSign's `errorCode` values (`#/definitions/errorDetails`) whose class is
 * not what their HTTP status alone would say. Rate limits come back as HTTP
 * 400 (not only 429), so a client branching on the status alone would give up
 * on them: these codes are looked up first. Keys are upper case; the service's
 * code is compared case-insensitively because DocuSign writes the per-envelope
 * ones in mixed case (`Hourly_Envelope_Polling_Limit_Exceeded`).
 *
 * Sources: developers.docusign.com "eSignature API rules and resource limits"
 * and "API resource limits" (hourly 3,000/h, burst 500/30 s, 200 in demo); the
 * DocuSign developer blog "Service protection: new API errors for excessive
 * polling and envelope updates" (the four per-envelope codes, answered with 400).
 */
export const serviceErrorCodeRules: Readonly<Record<string, ServiceErrorRule>> = Object.freeze({
  // Account-wide limits: retry after the window resets.
  HOURLY_APIINVOCATION_LIMIT_EXCEEDED: {
    class: 'retry-later',
    meaning: 'hourly API call limit of the account reached (resets at the top of the hour)',
  },
  BURST_APIINVOCATION_LIMIT_EXCEEDED: { class: 'retry-later', meaning: '30-second burst limit of the account reached' },
  // Per-envelope limits (GETs polling an envelope, PUTs updating it).
  HOURLY_APIINVOCATION_ENVELOPE_LIMIT_EXCEEDED: {
    class: 'retry-later',
    meaning: 'too many updates (PUT) of one envelope in the last hour',
  },
  BURST_APIINVOCATION_ENVELOPE_LIMIT_EXCEEDED: {
    class: 'retry-later',
    meaning: 'too many updates (PUT) of one envelope in the last 30 seconds',
  },
  HOURLY_ENVELOPE_POLLING_LIMIT_EXCEEDED: {
    class: 'retry-later',
    meaning: 'too many reads (GET) of one envelope in the last hour',
  },
  BURST_ENVELOPE_POLLING_LIMIT_EXCEEDED: {
    class: 'retry-later',
    meaning: 'too many reads (GET) of one envelope in the last 30 seconds',
  },
  // Authentication and permissions: retrying cannot help.
  USER_AUTHENTICATION_FAILED: { class: 'never-retry', meaning: 'username, password or integrator key wrong' },
  PARTNER_AUTHENTICATION_FAILED: { class: 'never-retry', meaning: 'integrator key unknown or disabled' },
  USER_LACKS_MEMBERSHIP: { class: 'never-retry', meaning: 'the user is not a member of the account' },
  ACCOUNT_LACKS_PERMISSIONS: { class: 'never-retry', meaning: 'the account may not do this' },
  USER_LACKS_PERMISSIONS: { class: 'never-retry', meaning: 'the user may not do this' },
  // The request is wrong or names something that does not exist.
  INVALID_REQUEST_BODY: { class: 'never-retry', meaning: 'the body is missing or malformed' },
  INVALID_REQUEST_PARAMETER: { class: 'never-retry', meaning: 'a parameter is invalid' },
  ENVELOPE_DOES_NOT_EXIST: { class: 'never-retry', meaning: 'no such envelope in this account' },
  DOCUMENT_DOES_NOT_EXIST: { class: 'never-retry', meaning: 'no such document in the envelope' },
  TEMPLATE_ID_INVALID: { class: 'never-retry', meaning: 'no such template' },
  UNKNOWN_ENVELOPE_RECIPIENT: { class: 'never-retry', meaning: 'no such recipient in the envelope' },
  RECIPIENT_NOT_IN_SEQUENCE: {
    class: 'never-retry',
    meaning: 'the recipient is not yet (or no longer) the one to sign',
  },
  ENVELOPE_INVALID_STATUS: { class: 'never-retry', meaning: 'the envelope is not in a status that allows this' },
  INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: { class: 'never-retry', meaning: 'a recipient email address is invalid' },
});

/** What is known of a failed call, for `classifyServiceError`. */
export interface ServiceFailure {
  /** HTTP status, when the service answered. */
  status?: number;
  /** DocuSign's errorCode from the body, when there was one. */
  errorCode?: string;
  /** True when no answer came (connection refused or reset, time-out, truncated body). */
  network?: boolean;
}

/** The verdict: the class and the rule that decided it (for reports: "retry-later because 429"). */
export interface ServiceErrorVerdict {
  class: ServiceErrorClass;
  /** e.g. `errorCode BURST_APIINVOCATION_LIMIT_EXCEEDED`, `status 503`, `network`. */
  decidedBy: string;
}

/** Statuses that mean "slow down" whatever the body says. */
const retryLaterStatuses = new Set([429]);
/** Statuses of a transient failure: request time-out and the server errors. */
const retryNowStatuses = new Set([408, 500, 502, 503, 504]);

/**
 * Classifies a failed call, in this order: a known DocuSign errorCode (so a
 * rate limit answered with 400 is still "retry later"); then the status (429
 * → later; 408, 500, 502, 503, 504 and any other 5xx → now); then a network
 * failure (→ now); anything else (other 4xx, unknown codes with 4xx) → never.
 *
 * The HTTP client should use this one table for its retry decisions, so that
 * retries, the runner's "stop starting work" on rate limits, and the report's
 * advice agree.
 */
export function classifyServiceError(failure: ServiceFailure): ServiceErrorVerdict {
  if (failure.errorCode !== undefined) {
    const rule = serviceErrorCodeRules[failure.errorCode.toUpperCase()];
    if (rule) return { class: rule.class, decidedBy: `errorCode ${failure.errorCode}` };
    // Unknown codes named like DocuSign's call-rate codes are rate limits too
    // (DocuSign adds new ones); other *_LIMIT_EXCEEDED codes (plan allowances)
    // are not, so the match is on APIINVOCATION / POLLING.
    if (/(APIINVOCATION|POLLING).*_LIMIT_EXCEEDED$/i.test(failure.errorCode))
      return { class: 'retry-later', decidedBy: `errorCode ${failure.errorCode}` };
  }
  if (failure.status !== undefined) {
    if (retryLaterStatuses.has(failure.status)) return { class: 'retry-later', decidedBy: `status ${failure.status}` };
    if (retryNowStatuses.has(failure.status) || (failure.status >= 500 && failure.status <= 599)) {
      return { class: 'retry-now', decidedBy: `status ${failure.status}` };
    }
    return { class: 'never-retry', decidedBy: `status ${failure.status}` };
  }
  if (failure.network) return { class: 'retry-now', decidedBy: 'network' };
  return { class: 'never-retry', decidedBy: 'no status, no errorCode' };
}
