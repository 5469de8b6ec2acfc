import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/sandbox/platform/clock.js';

describe('isoTime', () => {
  it('writes exactly what toISOString writes: day and hour edges, leap days, the years 1970 to 9999 and beyond', () => {
    const edges = [
      0,
      1,
      999,
      59_999,
      3_599_999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2026, 10, 29, 15, 40, 0, 7),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1),
      -1,
      Date.UTC(1969, 6, 20, 20, 17, 40, 5),
      1_764_430_800_000.5,
      8.64e15,
    ];
    // A walk over the range with a step prime to every unit, so each field takes many values.
    for (let ms = 0; ms < 253_402_300_800_000; ms += 86_399_993 * 997) edges.push(ms);
    for (let ms = Date.UTC(2026, 10, 29); ms < Date.UTC(2026, 10, 30, 1); ms += 9_973) edges.push(ms);
    for (const ms of edges) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    // Back and forth between days: the cached day is not carried into another.
    expect([isoTime(86_400_000 * 3 + 5), isoTime(5), isoTime(86_400_000 * 3 + 5)]).toEqual([
      '1970-01-04T00:00:00.005Z',
      '1970-01-01T00:00:00.005Z',
      '1970-01-04T00:00:00.005Z',
    ]);
  });

  it('refuses what toISOString refuses', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
