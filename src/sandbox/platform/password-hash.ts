import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { setBounded } from './bounded-map.js';

// scrypt parameters (N=2^14, r=8, p=1): the node default; tens of ms per
// verification, which is why authenticate.ts caches verified credentials.
const params = { N: 16384, r: 8, p: 1 } as const;
const keyLength = 32;

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Hashes a password for storage: `scrypt$N$r$p$saltB64$hashB64`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * The hash of a seed's password, made once per process: a process that
 * starts many sandboxes (a test suite, each file its own) would otherwise
 * pay scrypt for every seeded user at every start, about half of a start's
 * CPU. One salt for a password within one process is no weaker for a local
 * sandbox's seeded users; passwords set through the API get their own salt.
 */
export function hashSeedPassword(password: string): Promise<string> {
  let hash = seedHashes.get(password);
  if (hash === undefined) {
    // The hash was made from this password, so the pair matches: remembered as verified (as after a login's
    // scrypt), the sandbox's first login with a seeded password waits on no scrypt (~45 ms on the thread pool
    // at each `signrun serve`'s first request). Any other password still pays scrypt against the hash.
    hash = hashPassword(password).then((made) => {
      setBounded(matched, pairKey(password, made), true, matchedCapacity);
      return made;
    });
    seedHashes.set(password, hash);
    hash.catch(() => seedHashes.delete(password));
  }
  return hash;
}
const seedHashes = new Map<string, Promise<string>>();

/**
 * Pairs of a stored hash and a password that matched it, by a digest of the
 * two (the password itself is not kept): a match is a fact about the two
 * values alone, so a second sandbox of the process that stores the same
 * seed hash, or a second check of one access code, needs no scrypt. Only
 * matches are kept: a wrong password always pays scrypt's cost.
 */
const matched = new Map<string, true>();
const matchedCapacity = 1024;

/** The key of a (password, stored hash) pair in `matched`: a digest, so the password itself is not kept. */
function pairKey(password: string, stored: string): string {
  return createHash('sha256').update(stored).update('\u0000').update(password).digest('base64');
}

/** True when this password is known to match this stored hash (verified before, or the hash made from it): no scrypt needed. */
export function knownMatch(password: string, stored: string): boolean {
  return matched.has(pairKey(password, stored));
}

/** True when `password` matches a hash made by hashPassword. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const pair = pairKey(password, stored);
  if (matched.has(pair)) return true;
  const matches = await verifyWithScrypt(password, stored);
  if (matches) setBounded(matched, pair, true, matchedCapacity);
  return matches;
}

async function verifyWithScrypt(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const key = await scryptAsync(password, Buffer.from(saltB64, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
