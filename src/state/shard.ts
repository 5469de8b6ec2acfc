import { createHash } from 'node:crypto';
import { SignrunError } from '../errors/signrun-error.js';

/** One share of a campaign split N ways (`run --shard K/N`). */
export interface Shard {
  /** 1-based: 1 ≤ index ≤ count. */
  index: number;
  /** How many shards in all, ≥ 1. */
  count: number;
}

/** Upper bound of N, so that a typo like `1/1000000` is caught rather than running an empty shard. */
export const maxShardCount = 1000;

/**
 * The shard (1..n) an identity belongs to: the first 48 bits of the sha256 of
 * the identity, modulo n. Depends on nothing but the identity and n, so N CI
 * jobs that share no state agree on who sends what; 48 bits keep the modulo
 * bias below 1e-11 for any n ≤ 1000.
 */
export function shardOf(identity: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`shard count must be a positive integer, got ${n}`);
  const hash = createHash('sha256').update(identity, 'utf8').digest();
  return (hash.readUIntBE(0, 6) % n) + 1;
}

/** True when the identity falls in the given shard (always true for `1/1`). */
export function inShard(identity: string, shard: Shard): boolean {
  return shardOf(identity, shard.count) === shard.index;
}

/**
 * Parses `K/N` as given to `--shard`. Throws SR_USAGE (a bad command-line
 * value) naming what is wrong: not of the form K/N, N < 1 or too large,
 * K outside 1..N.
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) {
    throw new SignrunError(
      'SR_USAGE',
      `--shard "${text}" is not of the form K/N (e.g. 2/3: the second of three shards)`,
      {
        hint: 'Give --shard K/N with whole numbers, 1 ≤ K ≤ N.',
        details: { option: '--shard', value: text },
      },
    );
  }
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > maxShardCount) {
    throw new SignrunError(
      'SR_USAGE',
      `--shard "${text}": the number of shards must be between 1 and ${maxShardCount}`,
      {
        hint: 'Give --shard K/N with 1 ≤ N ≤ 1000.',
        details: { option: '--shard', value: text },
      },
    );
  }
  if (index < 1 || index > count) {
    throw new SignrunError(
      'SR_USAGE',
      `--shard "${text}": shard ${index} does not exist; shards are numbered 1 to ${count}`,
      {
        hint: `Give --shard K/${count} with 1 ≤ K ≤ ${count} (shards are 1-based).`,
        details: { option: '--shard', value: text },
      },
    );
  }
  return { index, count };
}
