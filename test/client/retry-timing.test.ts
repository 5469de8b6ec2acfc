import { describe, expect, it } from 'vitest';
import { parseRateLimitReset, parseRetryAfter } from '../../src/client/retry-after.js';
import { readRateLimit } from '../../src/client/rate-limit.js';
import { defaultRetryPolicy, retryDelay } from '../../src/client/retry-policy.js';

const now = Date.parse('2026-11-20T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['3', 3000],
    [' 120 ', 120_000],
    ['Fri, 20 Nov 2026 12:00:30 GMT', 30_000],
    ['Fri, 20 Nov 2026 11:59:00 GMT', 0],
    ['', undefined],
    ['soon', undefined],
    ['1.5', undefined],
    ['-3', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('parseRateLimitReset', () => {
  it.each([
    [String(now / 1000 + 42), 42_000],
    [String(now / 1000 - 10), 0],
    ['abc', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j ms', (value, expected) => {
    expect(parseRateLimitReset(value, now)).toBe(expected);
  });
});

describe('readRateLimit', () => {
  const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
  it('reads hourly and burst headers', () => {
    expect(
      readRateLimit(
        headers({
          'x-ratelimit-limit': '3000',
          'x-ratelimit-remaining': '2990',
          'x-ratelimit-reset': String(now / 1000),
          'x-burstlimit-limit': '500',
          'x-burstlimit-remaining': '499',
        }),
      ),
    ).toEqual({
      limit: 3000,
      remaining: 2990,
      resetAt: '2026-11-20T12:00:00.000Z',
      burstLimit: 500,
      burstRemaining: 499,
    });
  });
  it('is undefined without headers and ignores garbage', () => {
    expect(readRateLimit(headers({}))).toBeUndefined();
    expect(readRateLimit(headers({ 'x-ratelimit-remaining': 'lots' }))).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const noJitter = { ...defaultRetryPolicy, jitter: 'none' as const };
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((a) => retryDelay(noJitter, a, undefined, () => 0.5))).toEqual([
      250, 500, 1000, 2000, 8000,
    ]);
  });
  it('full jitter picks within [0, backoff)', () => {
    expect(retryDelay(defaultRetryPolicy, 3, undefined, () => 0.5)).toBe(500);
    expect(retryDelay(defaultRetryPolicy, 3, undefined, () => 0)).toBe(0);
  });
  it('a longer server delay wins', () => {
    expect(retryDelay(noJitter, 1, 5000, () => 0.5)).toBe(5000);
    expect(retryDelay(noJitter, 4, 100, () => 0.5)).toBe(2000);
  });
});
