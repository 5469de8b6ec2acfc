import type { ErrorCode } from '../errors/catalogue.js';

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

/** signrun's codes for a refusal by the service (see src/errors/codes/client.ts). */
export type ServiceErrorCode = Extract<
  ErrorCode,
  'SR_HTTP_STATUS' | 'SR_HTTP_AUTH' | 'SR_RATE_LIMITED' | 'SR_ACCOUNT_ALLOWANCE' | 'SR_HTTP_NETWORK'
>;

/**
 * What a refusal tells the runner beyond retrying: `recipient-not-in-turn`
 * (ask for the signing address later: `sign-url`), `account-missing` (the
 * account is gone: create it, or it is already absent), `envelope-status-moved-on`
 * (the envelope is no longer in the status the call needs — e.g. a draft
 * another runner has sent already: the call's purpose may be met).
 */
export type ServiceErrorMeans =
  'recipient-not-in-turn' | 'account-missing' | 'envelope-status-moved-on' | 'template-missing';

/**
 * One row of the DocuSign knowledge table: everything signrun concludes from
 * one `errorCode`, in one place, so that the retry layer, the error's SR code,
 * its hint and the runner's decisions cannot disagree.
 */
export interface ServiceErrorRule {
  class: ServiceErrorClass;
  /** The SR_* code of the error this refusal becomes (its exit code and default hint come from the catalogue). */
  code: ServiceErrorCode;
  /** What the code means, in a few words (DocuSign's documentation, paraphrased). */
  meaning: string;
  /** What to do, when more precise than the catalogue's hint for `code`. */
  hint?: string;
  /** What the runner reads from it, when anything. */
  means?: ServiceErrorMeans;
  /** For rate limits: the window that refused, whose reset header says when to come back (`x-burstlimit-reset` or `x-ratelimit-reset`). */
  window?: 'burst' | 'hourly';
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
    code: 'SR_RATE_LIMITED',
    window: 'hourly',
    meaning: 'hourly API call limit of the account reached (resets at the top of the hour)',
  },
  BURST_APIINVOCATION_LIMIT_EXCEEDED: {
    class: 'retry-later',
    code: 'SR_RATE_LIMITED',
    window: 'burst',
    meaning: '30-second burst limit of the account reached',
  },
  // Per-envelope limits (GETs polling an envelope, PUTs updating it).
  HOURLY_APIINVOCATION_ENVELOPE_LIMIT_EXCEEDED: {
    class: 'retry-later',
    code: 'SR_RATE_LIMITED',
    window: 'hourly',
    meaning: 'too many updates (PUT) of one envelope in the last hour',
  },
  BURST_APIINVOCATION_ENVELOPE_LIMIT_EXCEEDED: {
    class: 'retry-later',
    code: 'SR_RATE_LIMITED',
    window: 'burst',
    meaning: 'too many updates (PUT) of one envelope in the last 30 seconds',
  },
  HOURLY_ENVELOPE_POLLING_LIMIT_EXCEEDED: {
    class: 'retry-later',
    code: 'SR_RATE_LIMITED',
    window: 'hourly',
    meaning: 'too many reads (GET) of one envelope in the last hour',
  },
  BURST_ENVELOPE_POLLING_LIMIT_EXCEEDED: {
    class: 'retry-later',
    code: 'SR_RATE_LIMITED',
    window: 'burst',
    meaning: 'too many reads (GET) of one envelope in the last 30 seconds',
  },
  // A plan allowance is not a rate limit: no window resets it, waiting does not help.
  ENVELOPE_ALLOWANCE_LIMIT_EXCEEDED: {
    class: 'never-retry',
    code: 'SR_ACCOUNT_ALLOWANCE',
    meaning: "the account's plan allows no more envelopes",
  },
  // Authentication and permissions: retrying cannot help.
  USER_AUTHENTICATION_FAILED: {
    class: 'never-retry',
    code: 'SR_HTTP_AUTH',
    meaning: 'username, password or integrator key wrong',
  },
  PARTNER_AUTHENTICATION_FAILED: {
    class: 'never-retry',
    code: 'SR_HTTP_AUTH',
    meaning: 'integrator key unknown or disabled',
  },
  USER_LACKS_MEMBERSHIP: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'the user is not a member of the account',
    hint: 'Log in as a user of this account (DOCUSIGN_USERNAME), or check the accountId the job names.',
  },
  ACCOUNT_LACKS_PERMISSIONS: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'the account may not do this',
    hint: "Ask the account's administrator to enable the feature for this account; retrying does not help.",
  },
  USER_LACKS_PERMISSIONS: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'the user may not do this',
    hint: "Ask the account's administrator for the permission, or log in as a user who has it.",
  },
  // The request is wrong or names something that does not exist.
  INVALID_REQUEST_BODY: { class: 'never-retry', code: 'SR_HTTP_STATUS', meaning: 'the body is missing or malformed' },
  INVALID_REQUEST_PARAMETER: { class: 'never-retry', code: 'SR_HTTP_STATUS', meaning: 'a parameter is invalid' },
  ENVELOPE_DOES_NOT_EXIST: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'no such envelope in this account',
  },
  DOCUMENT_DOES_NOT_EXIST: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'no such document in the envelope',
  },
  TEMPLATE_ID_INVALID: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'no such template',
    means: 'template-missing',
    hint: 'Check the templateId in the job file against the templates of the account.',
  },
  UNKNOWN_ENVELOPE_RECIPIENT: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'no such recipient in the envelope',
  },
  RECIPIENT_NOT_IN_SEQUENCE: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'the recipient is not yet (or no longer) the one to sign',
    hint: 'Ask for the signing address when it is their turn: npx signrun sign-url <out-dir> <envelope-key> <recipient>',
    means: 'recipient-not-in-turn',
  },
  ENVELOPE_INVALID_STATUS: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'the envelope is not in a status that allows this',
    means: 'envelope-status-moved-on',
  },
  INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'a recipient email address is invalid',
    hint: "Fix the recipient's email in the job file (or its CSV row), then run again.",
  },
  ACCOUNT_NOT_FOUND: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'no such account',
    means: 'account-missing',
  },
  ACCOUNT_DOES_NOT_EXIST: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'no such account',
    means: 'account-missing',
  },
  INVALID_ACCOUNTID: {
    class: 'never-retry',
    code: 'SR_HTTP_STATUS',
    meaning: 'the accountId names no account',
    means: 'account-missing',
  },
});

/**
 * Codes DocuSign has not listed yet but names like a known family: each
 * pattern stands for the row it copies. Call-rate codes (APIINVOCATION,
 * POLLING) are rate limits; other `*_LIMIT_EXCEEDED` codes (plan
 * allowances) are not, so the match is not on LIMIT_EXCEEDED alone.
 */
const familyRules: ReadonlyArray<{ pattern: RegExp; rule: ServiceErrorRule }> = [
  {
    pattern: /BURST.*(APIINVOCATION|POLLING).*_LIMIT_EXCEEDED$/i,
    rule: { class: 'retry-later', code: 'SR_RATE_LIMITED', meaning: 'a burst call-rate limit', window: 'burst' },
  },
  {
    pattern: /(APIINVOCATION|POLLING).*_LIMIT_EXCEEDED$/i,
    rule: { class: 'retry-later', code: 'SR_RATE_LIMITED', meaning: 'a call-rate limit of the service' },
  },
  {
    pattern: /(NOT_IN_SEQUENCE|OUT_OF_SEQUENCE)$/i,
    rule: serviceErrorCodeRules['RECIPIENT_NOT_IN_SEQUENCE']!,
  },
  {
    pattern: /ACCOUNT.*(NOT_EXIST|NOT_FOUND)|INVALID_ACCOUNT|ACCOUNT_DELETED/i,
    rule: serviceErrorCodeRules['ACCOUNT_NOT_FOUND']!,
  },
];

/** The row for a DocuSign errorCode: the table's, else its family's; undefined when unknown. */
export function serviceErrorRuleOf(errorCode: string): ServiceErrorRule | undefined {
  return serviceErrorCodeRules[errorCode.toUpperCase()] ?? familyRules.find((f) => f.pattern.test(errorCode))?.rule;
}

/** What is known of a failed call, for `classifyServiceError`. */
export interface ServiceFailure {
  /** HTTP status, when the service answered. */
  status?: number;
  /** DocuSign's errorCode from the body, when there was one. */
  errorCode?: string;
  /** True when no answer came (connection refused or reset, time-out, truncated body). */
  network?: boolean;
}

/**
 * The verdict: the class, the rule that decided it (for reports: "retry-later
 * because 429"), and the SR code, hint and meaning the failure carries.
 */
export interface ServiceErrorVerdict {
  class: ServiceErrorClass;
  /** e.g. `errorCode BURST_APIINVOCATION_LIMIT_EXCEEDED`, `status 503`, `network`. */
  decidedBy: string;
  /** The SR_* code the failure is reported with. */
  code: ServiceErrorCode;
  /** A hint more precise than the catalogue's for `code`, when the table has one. */
  hint?: string;
  means?: ServiceErrorMeans;
  /** See {@link ServiceErrorRule.window}. */
  window?: 'burst' | 'hourly';
}

/** Statuses that mean "slow down" whatever the body says. */
const retryLaterStatuses = new Set([429]);
/** Statuses of a transient failure: request time-out and the server errors. */
const retryNowStatuses = new Set([408, 500, 502, 503, 504]);

/**
 * Classifies a failed call, in this order: a known DocuSign errorCode or its
 * family (so a rate limit answered with 400 is still "retry later"); then the
 * status (401 → never, SR_HTTP_AUTH; 429 → later; 408, 500, 502, 503, 504 and
 * any other 5xx → now); then a network failure (→ now); anything else (other
 * 4xx, unknown codes with 4xx) → never.
 *
 * The one reading of DocuSign's answers: the retry layer, the SR code and
 * hint of ClientHttpError, createOnce and the runner's pipelines all ask it.
 */
export function classifyServiceError(failure: ServiceFailure): ServiceErrorVerdict {
  if (failure.errorCode !== undefined) {
    const rule = serviceErrorRuleOf(failure.errorCode);
    if (rule) {
      return {
        class: rule.class,
        decidedBy: `errorCode ${failure.errorCode}`,
        code: rule.code,
        ...(rule.hint === undefined ? {} : { hint: rule.hint }),
        ...(rule.means === undefined ? {} : { means: rule.means }),
        ...(rule.window === undefined ? {} : { window: rule.window }),
      };
    }
  }
  if (failure.status !== undefined) {
    const decidedBy = `status ${failure.status}`;
    if (failure.status === 401) return { class: 'never-retry', decidedBy, code: 'SR_HTTP_AUTH' };
    if (retryLaterStatuses.has(failure.status)) return { class: 'retry-later', decidedBy, code: 'SR_RATE_LIMITED' };
    if (retryNowStatuses.has(failure.status) || (failure.status >= 500 && failure.status <= 599)) {
      return { class: 'retry-now', decidedBy, code: 'SR_HTTP_STATUS' };
    }
    return { class: 'never-retry', decidedBy, code: 'SR_HTTP_STATUS' };
  }
  if (failure.network) return { class: 'retry-now', decidedBy: 'network', code: 'SR_HTTP_NETWORK' };
  return { class: 'never-retry', decidedBy: 'no status, no errorCode', code: 'SR_HTTP_STATUS' };
}

/** What the runner reads from a client error beyond retrying (see {@link ServiceErrorMeans}). */
export function serviceErrorMeans(error: unknown, means: ServiceErrorMeans): boolean {
  const code = (error as { serviceErrorCode?: unknown } | undefined)?.serviceErrorCode;
  return typeof code === 'string' && serviceErrorRuleOf(code)?.means === means;
}
