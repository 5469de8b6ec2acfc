import { describe, expect, it } from 'vitest';
import {
  contentDigest,
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

  it('digests content independently of key order, and sensitively to values', () => {
    const a = contentDigest({ emailSubject: 'Offer', recipients: [{ name: 'A', email: 'a@x.test' }] });
    const b = contentDigest({ recipients: [{ email: 'a@x.test', name: 'A' }], emailSubject: 'Offer' });
    const c = contentDigest({ recipients: [{ email: 'a@x.test', name: 'B' }], emailSubject: 'Offer' });
    const d = contentDigest({
      recipients: [
        { email: 'a@x.test', name: 'A' },
        { email: 'b@x.test', name: 'B' },
      ].reverse(),
      emailSubject: 'Offer',
    });
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(d).not.toBe(a); // array order is content (routing, document order)
  });
});
