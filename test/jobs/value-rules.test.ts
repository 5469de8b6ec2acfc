import { describe, expect, it } from 'vitest';
import { httpUrlProblem, identityLengthProblem } from '../../src/jobs/value-rules.js';

describe('identityLengthProblem', () => {
  it('takes an identity of 100 characters, refuses 101, counting the job, the slash, the key and the suffix', () => {
    expect(identityLengthProblem('j'.repeat(40), 'k'.repeat(50), '#template')).toBeUndefined();
    const problem = identityLengthProblem('j'.repeat(40), 'k'.repeat(51), '#template');
    expect(problem).toMatch(/is 101 characters long/);
    expect(problem).toMatch(/shorten the job name \(40\) or the key \(51\)/);
    expect(identityLengthProblem('j'.repeat(49), 'é'.repeat(51), '')).toMatch(/is 101 characters long/);
  });
});

describe('httpUrlProblem', () => {
  it('answers each URL for itself, the same one asked again or after another', () => {
    const ok = 'https://example.com/done';
    const ftp = 'ftp://example.com/done';
    expect(httpUrlProblem(ok)).toBeUndefined();
    expect(httpUrlProblem(ok)).toBeUndefined();
    expect(httpUrlProblem(ftp)).toMatch(/must use http or https, not ftp/);
    expect(httpUrlProblem(ftp)).toMatch(/not ftp/);
    expect(httpUrlProblem('done')).toMatch(/is not an absolute URL/);
    expect(httpUrlProblem(ok)).toBeUndefined();
  });
});
