import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { burstLimiter, createBurstLimit } from '../../src/sandbox/platform/limits/burst-limit.js';
import { authHeader, call, expectApiError } from '../sandbox/helpers/api.js';
import { injectedSandbox } from '../sandbox/helpers/injected-sandbox.js';

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-11-20T10:00:00.000Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('burst limit (unit)', () => {
  it('allows `limit` calls per account per 30-second window, then refuses until the window ends', () => {
    const clock = manualClock();
    const burst = createBurstLimit(3, clock);
    expect([1, 2, 3].map(() => burst.check('acc-a')?.remaining)).toEqual([2, 1, 0]);
    const refused = burst.check('acc-a');
    expect(refused?.allowed).toBe(false);
    expect(refused?.reset).toBe(Date.parse('2026-11-20T10:00:30.000Z') / 1000);
    // Accounts are counted apart.
    expect(burst.check('acc-b')?.allowed).toBe(true);
    clock.advance(30_000);
    expect(burst.check('acc-a')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('adds nothing when no limit is configured', () => {
    const limiter = burstLimiter(createBurstLimit(undefined, manualClock()));
    expect(limiter.check('acc')).toEqual({ headers: {} });
  });

  it('refuses with 400 by default and 429 when asked, both with BURST_APIINVOCATION_LIMIT_EXCEEDED and Retry-After', () => {
    for (const refuseWith of [400, 429] as const) {
      const clock = manualClock(Date.parse('2026-11-20T10:00:10.000Z'));
      const limiter = burstLimiter(createBurstLimit(1, clock), refuseWith === 400 ? { clock } : { clock, refuseWith });
      expect(limiter.check('acc').refuse).toBeUndefined();
      const decision = limiter.check('acc');
      expect(decision.refuse?.statusCode).toBe(refuseWith);
      expect(decision.refuse?.errorCode).toBe('BURST_APIINVOCATION_LIMIT_EXCEEDED');
      expect(decision.headers['retry-after']).toBe('20');
      expect(decision.headers['x-burstlimit-remaining']).toBe('0');
    }
  });
});

describe('burst limit in the real sandbox (serve --burst-limit)', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('sends x-burstlimit-* headers, refuses the call over the limit with 400, and forgives after the window', async () => {
    const clock = manualClock();
    sandbox = await injectedSandbox({ burstLimit: 4 }, { clock });
    const url = `${sandbox.rootUrl}/login_information`;
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await call(url, { headers: authHeader() });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-burstlimit-limit')).toBe('4');
      expect(r.headers.get('x-burstlimit-reset')).toBe(String(Date.parse('2026-11-20T10:00:30.000Z') / 1000));
      remaining.push(r.headers.get('x-burstlimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const refused = await call(url, { headers: authHeader() });
    expectApiError(refused, 400, 'BURST_APIINVOCATION_LIMIT_EXCEEDED');
    expect(refused.headers.get('x-burstlimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBe(30);
    clock.advance(30_000);
    const after = await call(url, { headers: authHeader() });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-burstlimit-remaining')).toBe('3');
  });

  it('sits beside the hourly limit: both sets of headers, each limit refusing its own way', async () => {
    const clock = manualClock();
    sandbox = await injectedSandbox({ burstLimit: 2, hourlyLimit: 3 }, { clock });
    const url = `${sandbox.rootUrl}/login_information`;
    const first = await call(url, { headers: authHeader() });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(first.headers.get('x-burstlimit-remaining')).toBe('1');
    await call(url, { headers: authHeader() });
    expectApiError(await call(url, { headers: authHeader() }), 400, 'BURST_APIINVOCATION_LIMIT_EXCEEDED');
    clock.advance(30_000);
    await call(url, { headers: authHeader() });
    const hourly = await call(url, { headers: authHeader() });
    expect(hourly.status).toBe(429);
    expect((hourly.json as { errorCode?: string } | undefined)?.errorCode).toBe('HOURLY_APIINVOCATION_LIMIT_EXCEEDED');
  });
});
