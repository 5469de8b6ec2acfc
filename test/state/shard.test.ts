import { describe, expect, it } from 'vitest';
import { identityOf, inShard, parseShard, shardOf } from '../../src/state/index.js';
import { SignrunError } from '../../src/errors/signrun-error.js';

const identities = Array.from({ length: 12_000 }, (_, i) => identityOf('campaign-2026', `employee-${i}`));

describe('shardOf', () => {
  it('is deterministic: the same identity always lands in the same shard', () => {
    for (const id of identities.slice(0, 200)) {
      expect(shardOf(id, 7)).toBe(shardOf(id, 7));
      expect(shardOf(id, 1)).toBe(1);
    }
  });

  it('splits a campaign into disjoint shards that together cover every envelope', () => {
    const n = 3;
    const taken = [1, 2, 3].map((k) => identities.filter((id) => inShard(id, { index: k, count: n })));
    expect(taken.reduce((sum, s) => sum + s.length, 0)).toBe(identities.length);
    expect(new Set(taken.flat()).size).toBe(identities.length);
  });

  // A uniform split puts a binomial count in each shard: within 4 standard
  // deviations of its mean (a fair hash fails this about once in 15,000 runs
  // per shard; a biased one, such as summing char codes, fails it at once).
  it.each([2, 3, 5, 8, 16])('is even: each of %i shards gets its binomial share', (n) => {
    const counts = new Array<number>(n).fill(0);
    for (const id of identities) counts[shardOf(id, n) - 1]! += 1;
    const expected = identities.length / n;
    const sd = Math.sqrt(identities.length * (1 / n) * (1 - 1 / n));
    for (const c of counts) expect(Math.abs(c - expected)).toBeLessThan(4 * sd);
  });

  it('rejects a shard count that is not a positive integer', () => {
    expect(() => shardOf('a/b', 0)).toThrow(RangeError);
    expect(() => shardOf('a/b', 1.5)).toThrow(RangeError);
  });
});

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
    [' 3 / 3 ', { index: 3, count: 3 }],
  ])('parses %j', (text, expected) => {
    expect(parseShard(text)).toEqual(expected);
  });

  it.each(['', '1', '1/', '/3', 'a/b', '1/3/4', '-1/3', '1.5/3', '0/3', '4/3', '1/0', '0/0', '1/1001'])(
    'rejects %j with SR_USAGE',
    (text) => {
      let caught: unknown;
      try {
        parseShard(text);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SignrunError);
      expect((caught as SignrunError).code).toBe('SR_USAGE');
      expect((caught as SignrunError).details).toMatchObject({ option: '--shard', value: text });
    },
  );
});
