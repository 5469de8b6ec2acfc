/**
 * A small seeded PRNG (mulberry32: 32-bit state, passes the usual statistical
 * batteries well enough for fault injection, and is 6 lines). The same seed
 * gives the same sequence, so a run with `--fault-seed N` meets the same
 * faults on the same sequence of requests. Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for when none is given: random, and reported so the run can be replayed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
