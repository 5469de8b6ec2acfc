import { describe, expect, it } from 'vitest';
import { packedMap } from '../../src/jobs/packed-map.js';

describe('packedMap', () => {
  it('gives what Array.prototype.map gives, calling f in order with each index, for every length', () => {
    for (const length of [0, 1, 2, 3, 7, 40]) {
      const items = Array.from({ length }, (_, i) => ({ n: i * 3 }));
      const calls: number[] = [];
      const mapped = packedMap(items, (item, i) => {
        calls.push(i);
        return { doubled: item.n * 2, i };
      });
      expect(mapped).toEqual(items.map((item, i) => ({ doubled: item.n * 2, i })));
      expect(calls).toEqual(items.map((_, i) => i));
      expect(Object.keys(mapped)).toHaveLength(length); // no holes
    }
  });

  it('gives a new array of its own: the list given is left as it was', () => {
    const items = ['a', 'b', 'c'];
    const mapped = packedMap(items, (s) => s.toUpperCase());
    expect(mapped).toEqual(['A', 'B', 'C']);
    expect(items).toEqual(['a', 'b', 'c']);
    expect(mapped).not.toBe(items);
  });
});
