import { describe, expect, it } from 'vitest';
import {
  classifyServiceError,
  serviceErrorCodeRules,
  type ServiceErrorClass,
  type ServiceFailure,
} from '../../src/client/service-error-classes.js';

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
