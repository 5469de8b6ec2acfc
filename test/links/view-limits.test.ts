import { describe, expect, it } from 'vitest';
import { ViewLimits } from '../../src/links/view-limits.js';

describe('ViewLimits', () => {
  it('hands a made address out again for reuseMs when asked to, then makes a new one', () => {
    let now = 0;
    const limits = new ViewLimits({ reuseMs: 1000, perLink: 5, global: 5, windowMs: 60_000 }, () => now);
    const first = limits.decide('t');
    expect(first.kind).toBe('mint');
    if (first.kind === 'mint') limits.done('t', first.at, { calledService: true, url: 'https://s/1' });
    now = 999;
    expect(limits.decide('t')).toEqual({ kind: 'reuse', url: 'https://s/1' });
    now = 1000;
    expect(limits.decide('t').kind).toBe('mint');
  });

  it('an opening that called no service (a settled envelope, by its record) is not counted', () => {
    let now = 0;
    const limits = new ViewLimits({ perLink: 1, global: 10, windowMs: 60_000 }, () => now);
    const a = limits.decide('t');
    if (a.kind === 'mint') limits.done('t', a.at, { calledService: false });
    now = 1;
    const b = limits.decide('t');
    expect(b.kind).toBe('mint');
    if (b.kind === 'mint') limits.done('t', b.at, { calledService: true });
    now = 2;
    expect(limits.decide('t')).toMatchObject({ kind: 'wait', scope: 'link', retryAfterSeconds: 60 });
    // The window passes: the link may make an address again.
    now = 60_002;
    expect(limits.decide('t').kind).toBe('mint');
  });
});
