import { describe, expect, it } from 'vitest';
import {
  classifyServiceError,
  serviceErrorCodeRules,
  serviceErrorMeans,
  type ServiceErrorClass,
  type ServiceFailure,
} from '../../src/client/service-error-classes.js';
import { ClientHttpError } from '../../src/client/client-errors.js';
import type { ErrorCode } from '../../src/errors/catalogue.js';

// The table the client and runner rely on: each row is a failure and the class it must get.
const table: Array<[string, ServiceFailure, ServiceErrorClass]> = [
  // Rate limits, whichever way they are answered.
  ['429 without body', { status: 429 }, 'retry-later'],
  ['hourly limit as 400', { status: 400, errorCode: 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED' }, 'retry-later'],
  ['burst limit as 400', { status: 400, errorCode: 'BURST_APIINVOCATION_LIMIT_EXCEEDED' }, 'retry-later'],
  ['burst limit as 429', { status: 429, errorCode: 'BURST_APIINVOCATION_LIMIT_EXCEEDED' }, 'retry-later'],
  [
    'per-envelope update limit (hourly)',
    { status: 400, errorCode: 'Hourly_APIInvocation_Envelope_Limit_Exceeded' },
    'retry-later',
  ],
  [
    'per-envelope update limit (burst)',
    { status: 400, errorCode: 'Burst_APIInvocation_Envelope_Limit_Exceeded' },
    'retry-later',
  ],
  [
    'per-envelope polling limit (hourly)',
    { status: 400, errorCode: 'Hourly_Envelope_Polling_Limit_Exceeded' },
    'retry-later',
  ],
  [
    'per-envelope polling limit (burst)',
    { status: 400, errorCode: 'BURST_ENVELOPE_POLLING_LIMIT_EXCEEDED' },
    'retry-later',
  ],
  ['a future call-rate code', { status: 400, errorCode: 'DAILY_APIINVOCATION_LIMIT_EXCEEDED' }, 'retry-later'],
  // Transient failures.
  ['500', { status: 500 }, 'retry-now'],
  ['500 with a body code', { status: 500, errorCode: 'UNSPECIFIED_ERROR' }, 'retry-now'],
  ['502', { status: 502 }, 'retry-now'],
  ['503', { status: 503 }, 'retry-now'],
  ['504', { status: 504 }, 'retry-now'],
  ['599', { status: 599 }, 'retry-now'],
  ['408', { status: 408 }, 'retry-now'],
  ['connection reset', { network: true }, 'retry-now'],
  // The request itself is wrong.
  [
    'plan allowance is not a rate limit',
    { status: 400, errorCode: 'ENVELOPE_ALLOWANCE_LIMIT_EXCEEDED' },
    'never-retry',
  ],
  ['authentication', { status: 401, errorCode: 'USER_AUTHENTICATION_FAILED' }, 'never-retry'],
  ['authentication as 400', { status: 400, errorCode: 'PARTNER_AUTHENTICATION_FAILED' }, 'never-retry'],
  ['invalid body', { status: 400, errorCode: 'INVALID_REQUEST_BODY' }, 'never-retry'],
  ['not found', { status: 400, errorCode: 'ENVELOPE_DOES_NOT_EXIST' }, 'never-retry'],
  ['404 without body', { status: 404 }, 'never-retry'],
  ['403', { status: 403 }, 'never-retry'],
  ['unknown 400 code', { status: 400, errorCode: 'SOMETHING_NEW' }, 'never-retry'],
  ['nothing known', {}, 'never-retry'],
];

describe('classifyServiceError', () => {
  it.each(table)('%s → %s', (_name, failure, expected) => {
    expect(classifyServiceError(failure).class).toBe(expected);
  });

  it('says what decided, for reports', () => {
    expect(classifyServiceError({ status: 400, errorCode: 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED' }).decidedBy).toContain(
      'HOURLY_APIINVOCATION_LIMIT_EXCEEDED',
    );
    expect(classifyServiceError({ status: 503 }).decidedBy).toBe('status 503');
    expect(classifyServiceError({ network: true }).decidedBy).toBe('network');
  });

  it('documents every code of the table, keyed in upper case', () => {
    for (const [code, rule] of Object.entries(serviceErrorCodeRules)) {
      expect(code).toBe(code.toUpperCase());
      expect(rule.meaning.length).toBeGreaterThan(5);
      expect(classifyServiceError({ status: 400, errorCode: code }).class).toBe(rule.class);
    }
  });
});

// The DocuSign knowledge table, row by row: the retry class, the SR code the
// error carries, and the hint a person reads — as ClientHttpError builds them.
const knowledge: Array<[string, number, ServiceErrorClass, ErrorCode, RegExp]> = [
  ['HOURLY_APIINVOCATION_LIMIT_EXCEEDED', 400, 'retry-later', 'SR_RATE_LIMITED', /x-ratelimit-reset|--concurrency/],
  ['BURST_APIINVOCATION_LIMIT_EXCEEDED', 400, 'retry-later', 'SR_RATE_LIMITED', /x-ratelimit-reset|--concurrency/],
  ['Hourly_Envelope_Polling_Limit_Exceeded', 400, 'retry-later', 'SR_RATE_LIMITED', /x-ratelimit-reset/],
  ['DAILY_APIINVOCATION_LIMIT_EXCEEDED', 400, 'retry-later', 'SR_RATE_LIMITED', /x-ratelimit-reset/],
  // Once classified never-retry but reported SR_RATE_LIMITED with "wait / lower --concurrency".
  ['ENVELOPE_ALLOWANCE_LIMIT_EXCEEDED', 400, 'never-retry', 'SR_ACCOUNT_ALLOWANCE', /allowance/],
  ['USER_AUTHENTICATION_FAILED', 401, 'never-retry', 'SR_HTTP_AUTH', /DOCUSIGN_USERNAME/],
  ['PARTNER_AUTHENTICATION_FAILED', 400, 'never-retry', 'SR_HTTP_AUTH', /DOCUSIGN_INTEGRATOR_KEY/],
  ['USER_LACKS_PERMISSIONS', 403, 'never-retry', 'SR_HTTP_STATUS', /permission/],
  ['RECIPIENT_NOT_IN_SEQUENCE', 400, 'never-retry', 'SR_HTTP_STATUS', /npx signrun sign-url/],
  ['TEMPLATE_ID_INVALID', 400, 'never-retry', 'SR_HTTP_STATUS', /templateId/],
  ['INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', 400, 'never-retry', 'SR_HTTP_STATUS', /email/],
  ['ENVELOPE_DOES_NOT_EXIST', 404, 'never-retry', 'SR_HTTP_STATUS', /errorCode/],
  ['SOMETHING_NEW', 400, 'never-retry', 'SR_HTTP_STATUS', /errorCode/],
];

const request = { method: 'POST', path: '/restapi/v2/accounts/1/envelopes', operation: 'createEnvelope' };

describe('the DocuSign knowledge table', () => {
  it.each(knowledge)('%s (%i) → %s, %s, hint %s', (errorCode, status, retryClass, code, hint) => {
    expect(classifyServiceError({ status, errorCode }).class).toBe(retryClass);
    const error = new ClientHttpError({ ...request, status, serviceErrorCode: errorCode });
    expect(error.code).toBe(code);
    expect(error.hint).toMatch(hint);
  });

  it('every row agrees with itself: a rate limit is retried later and reported as one, nothing else is', () => {
    for (const [errorCode, rule] of Object.entries(serviceErrorCodeRules)) {
      const error = new ClientHttpError({ ...request, status: 400, serviceErrorCode: errorCode });
      expect(error.code, errorCode).toBe(rule.code);
      expect(rule.class === 'retry-later', errorCode).toBe(rule.code === 'SR_RATE_LIMITED');
      // A hint that says to wait belongs to a code that waiting can fix.
      if (/\bwait until\b/i.test(error.hint ?? '')) expect(rule.class, errorCode).toBe('retry-later');
    }
  });

  it('names the window of a rate limit, whose reset header fetch-once reads', () => {
    const windowOf = (errorCode: string) => classifyServiceError({ status: 400, errorCode }).window;
    expect(windowOf('BURST_APIINVOCATION_LIMIT_EXCEEDED')).toBe('burst');
    expect(windowOf('Burst_Envelope_Polling_Limit_Exceeded')).toBe('burst');
    expect(windowOf('BURST_APIINVOCATION_FUTURE_LIMIT_EXCEEDED')).toBe('burst');
    expect(windowOf('HOURLY_APIINVOCATION_LIMIT_EXCEEDED')).toBe('hourly');
    expect(windowOf('DAILY_APIINVOCATION_LIMIT_EXCEEDED')).toBeUndefined();
    expect(windowOf('INVALID_REQUEST_BODY')).toBeUndefined();
  });

  it('says what the runner reads beyond retrying', () => {
    const refusal = (serviceErrorCode: string) => new ClientHttpError({ ...request, status: 400, serviceErrorCode });
    expect(serviceErrorMeans(refusal('RECIPIENT_NOT_IN_SEQUENCE'), 'recipient-not-in-turn')).toBe(true);
    expect(serviceErrorMeans(refusal('RECIPIENT_OUT_OF_SEQUENCE'), 'recipient-not-in-turn')).toBe(true);
    expect(serviceErrorMeans(refusal('ACCOUNT_NOT_FOUND'), 'account-missing')).toBe(true);
    expect(serviceErrorMeans(refusal('INVALID_ACCOUNTID'), 'account-missing')).toBe(true);
    expect(serviceErrorMeans(refusal('ENVELOPE_DOES_NOT_EXIST'), 'account-missing')).toBe(false);
    expect(serviceErrorMeans(refusal('ENVELOPE_INVALID_STATUS'), 'envelope-status-moved-on')).toBe(true);
    expect(serviceErrorMeans(new Error('x'), 'account-missing')).toBe(false);
  });
});
