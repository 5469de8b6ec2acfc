import { describe, expect, it } from 'vitest';
import {
  digestFieldName,
  identityFieldName,
  identityOf,
  transactionIdMaxLength,
  transactionIdOf,
} from '../../src/state/index.js';

describe('envelope identity', () => {
  it('is <job>/<key>, in the custom fields the runner uses', () => {
    expect(identityOf('offer-letters-2026-11', 'jean-francais')).toBe('offer-letters-2026-11/jean-francais');
    expect(identityFieldName).toBe('signrun');
    expect(digestFieldName).toBe('signrunDigest');
  });

  it('gives a stable, short transactionId that differs between envelopes', () => {
    const a = transactionIdOf('job', 'a');
    expect(transactionIdOf('job', 'a')).toBe(a);
    expect(transactionIdOf('job', 'b')).not.toBe(a);
    // job/key boundaries matter: ("a/b","c") and ("a","b/c") are the same identity by design, but not ("ab","c")
    expect(transactionIdOf('ab', 'c')).not.toBe(transactionIdOf('a', 'bc'));
    const long = transactionIdOf('j'.repeat(200), 'k'.repeat(200));
    expect(long.length).toBeLessThanOrEqual(transactionIdMaxLength);
    expect(long).toMatch(/^sr-[0-9a-f]{40}$/);
  });
});
