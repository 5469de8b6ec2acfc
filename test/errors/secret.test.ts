import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeSecret, isSecret } from '../../src/secret.js';

describe('makeSecret', () => {
  it('never shows the value except through reveal()', () => {
    const secret = makeSecret('hunter2-password');
    expect(secret.reveal()).toBe('hunter2-password');
    // Stringifying the object is the point: that is how a secret leaks into a log line.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    expect(String(secret)).not.toContain('hunter2');
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions, @typescript-eslint/no-base-to-string
    expect(`${secret}`).not.toContain('hunter2');
    expect(JSON.stringify({ password: secret })).toBe('{"password":"[redacted]"}');
    expect(inspect({ nested: { secret } })).not.toContain('hunter2');
    expect(isSecret(secret)).toBe(true);
    expect(isSecret('hunter2-password')).toBe(false);
  });
});
