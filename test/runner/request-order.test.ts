import { describe, expect, it } from 'vitest';
import { RequestOrder, requestPriority, type RequestKind } from '../../src/runner/request-priority.js';

const kinds = Object.keys(requestPriority.usual) as RequestKind[];

describe('the order of a run’s requests', () => {
  it('is the usual one until the last stretch, then the last stretch’s, and switches once', () => {
    const maps: Array<(priority: number) => number> = [];
    const order = new RequestOrder((map) => maps.push(map));
    expect(kinds.map((k) => order.of(k))).toEqual(kinds.map((k) => requestPriority.usual[k]));
    expect(order.inLastStretch).toBe(false);
    order.enterLastStretch();
    order.enterLastStretch();
    expect(order.inLastStretch).toBe(true);
    expect(kinds.map((k) => order.of(k))).toEqual(kinds.map((k) => requestPriority.lastStretch[k]));
    // What already waits is reordered once, each request as its kind is now.
    expect(maps).toHaveLength(1);
    for (const k of kinds) expect(maps[0]!(requestPriority.usual[k])).toBe(requestPriority.lastStretch[k]);
  });

  it('in the last stretch, puts the step with the longest chain after it first, above every usual request', () => {
    const p = requestPriority.lastStretch;
    expect(p.draft).toBeGreaterThan(p.listing);
    expect(p.listing).toBe(p.confirm);
    expect(p.confirm).toBeGreaterThan(p.send);
    expect(p.docgen).toBeGreaterThanOrEqual(p.send);
    expect(p.send).toBeGreaterThan(p.views);
    expect(p.views).toBe(p.documents);
    expect(Math.min(...Object.values(p))).toBeGreaterThan(Math.max(...Object.values(requestPriority.usual)));
  });

  it('usually finishes what was begun first: views, send, listing, then new drafts', () => {
    const p = requestPriority.usual;
    expect(p.views).toBeGreaterThan(p.send);
    expect(p.send).toBeGreaterThan(p.listing);
    expect(p.listing).toBeGreaterThan(p.draft);
  });

  it('maps each usual priority to one last-stretch priority (kinds that wait alike are reordered alike)', () => {
    for (const a of kinds)
      for (const b of kinds)
        if (requestPriority.usual[a] === requestPriority.usual[b])
          expect([a, b, requestPriority.lastStretch[a]]).toEqual([a, b, requestPriority.lastStretch[b]]);
  });
});
