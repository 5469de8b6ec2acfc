import { describe, expect, it } from 'vitest';
import { CallBudget } from '../../src/runner/call-budget.js';

const start = new Date('2026-01-01T10:00:00Z');

describe('CallBudget', () => {
  it('--max-calls-per-hour: starts an item only when the calls left cover it and the items in flight; once no, stays no', () => {
    const budget = new CallBudget(20, start);
    for (let i = 0; i < 5; i += 1) budget.observe(undefined);
    expect(budget.remaining()).toBe(15);
    expect(budget.canStart(8, 0)).toBe(true);
    expect(budget.canStart(8, 8)).toBe(false);
    expect(budget.exhausted).toBe(true);
    expect(budget.canStart(1, 0)).toBe(false);
    // The run's own hour: resume one hour after it started.
    expect(budget.report()).toEqual({
      maxCallsPerHour: 20,
      used: 5,
      exhausted: true,
      resumeAt: '2026-01-01T11:00:00.000Z',
      code: 'SR_CALL_BUDGET_SPENT',
    });
  });

  it("without the option the service's x-ratelimit-remaining is the budget, and its reset is when to resume", () => {
    const budget = new CallBudget(undefined, start);
    expect(budget.canStart(1_000_000, 0)).toBe(true);
    budget.observe({ limit: 3000, remaining: 12, resetAt: '2026-01-01T10:37:00.000Z' });
    expect(budget.remaining()).toBe(12);
    expect(budget.canStart(9, 0)).toBe(true);
    expect(budget.canStart(9, 9)).toBe(false);
    expect(budget.report()).toMatchObject({ used: 1, exhausted: true, resumeAt: '2026-01-01T10:37:00.000Z' });
    expect(budget.report().maxCallsPerHour).toBeUndefined();
  });

  it('the smaller of the two decides, and so does the resume time', () => {
    const ownSmaller = new CallBudget(10, start);
    ownSmaller.observe({ remaining: 2900, resetAt: '2026-01-01T10:37:00.000Z' });
    expect(ownSmaller.remaining()).toBe(9);
    expect(ownSmaller.canStart(10, 0)).toBe(false);
    expect(ownSmaller.report().resumeAt).toBe('2026-01-01T11:00:00.000Z');
    const serviceSmaller = new CallBudget(1000, start);
    serviceSmaller.observe({ remaining: 3, resetAt: '2026-01-01T10:37:00.000Z' });
    expect(serviceSmaller.canStart(9, 0)).toBe(false);
    expect(serviceSmaller.report().resumeAt).toBe('2026-01-01T10:37:00.000Z');
  });

  it('not exhausted: the report has no resume time and no code', () => {
    const budget = new CallBudget(100, start);
    budget.observe(undefined);
    expect(budget.canStart(9, 9)).toBe(true);
    expect(budget.report()).toEqual({ maxCallsPerHour: 100, used: 1, exhausted: false });
  });

  it('spreading: the wait runs to the service’s reset measured from its own clock, then a window of its whole limit opens', () => {
    const budget = new CallBudget(undefined, start, { spread: true });
    // The local clock is ten minutes ahead of the service's.
    const local = new Date('2026-01-01T10:40:00Z');
    budget.observe({
      limit: 50,
      remaining: 2,
      resetAt: '2026-01-01T11:00:00.000Z',
      serviceTime: '2026-01-01T10:30:00.000Z',
    });
    expect(budget.canStart(5, 0)).toBe(false);
    expect(budget.exhausted).toBe(false);
    expect(budget.spreads).toBe(true);
    // 30 minutes of the service's clock (not 20 of the local one), and a second of margin.
    expect(budget.nextWindowAt(local).toISOString()).toBe('2026-01-01T11:10:01.000Z');
    budget.openWindow(new Date('2026-01-01T11:10:01Z'));
    expect(budget.remaining()).toBe(50);
    expect(budget.canStart(5, 0)).toBe(true);
    expect(budget.windowCalls()).toBe(50);
    expect(budget.report()).toMatchObject({ exhausted: false, windows: 2 });
  });

  it('spreading within --max-calls-per-hour: the run’s own hour, then its count starts again; an item bigger than a window gives up', () => {
    const budget = new CallBudget(10, start, { spread: true });
    for (let i = 0; i < 8; i += 1) budget.observe(undefined);
    expect(budget.canStart(4, 0)).toBe(false);
    expect(budget.nextWindowAt(start).toISOString()).toBe('2026-01-01T11:00:00.000Z');
    budget.openWindow(new Date('2026-01-01T11:00:00Z'));
    expect(budget.remaining()).toBe(10);
    expect(budget.canStart(11, 0)).toBe(false);
    budget.giveUp();
    expect(budget.exhausted).toBe(true);
    expect(budget.report()).toMatchObject({ exhausted: true, code: 'SR_CALL_BUDGET_SPENT' });
  });
});
