import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../src/errors/did-you-mean.js';
import { parseDotenv } from '../../src/jobs/dotenv.js';
import { findReferences, isSingleEnvReference, substituteReferences } from '../../src/jobs/references.js';

describe('references', () => {
  it('finds row, env and malformed references', () => {
    expect(findReferences('plain')).toEqual([]);
    expect(
      findReferences('emp-${row.employeeId}-${env.SUFFIX}').map((r) => [r.kind, 'name' in r ? r.name : r.text]),
    ).toEqual([
      ['row', 'employeeId'],
      ['env', 'SUFFIX'],
    ]);
    expect(findReferences('${rows.id}')[0]!.kind).toBe('invalid');
    expect(findReferences('${row.}')[0]!.kind).toBe('invalid');
    expect(findReferences('broken ${row.id')[0]!.kind).toBe('invalid');
  });

  it('substitutes only valid references', () => {
    const out = substituteReferences('${row.a}/${env.B}/${nope}', (kind, name) => `${kind}:${name}`);
    expect(out).toBe('row:a/env:B/${nope}');
  });

  it('accepts exactly one env reference as a password', () => {
    expect(isSingleEnvReference('${env.PASSWORD}')).toBe(true);
    expect(isSingleEnvReference('x${env.PASSWORD}')).toBe(false);
    expect(isSingleEnvReference('${row.password}')).toBe(false);
    expect(isSingleEnvReference('hunter2')).toBe(false);
  });
});

describe('parseDotenv', () => {
  it('reads KEY=VALUE lines as dotenv does', () => {
    const values = parseDotenv(
      '# comment\nA=1\nexport B = two words # trailing\nC="quoted # kept\\nnext"\nD=\'single\'\n\nnot a line\nE=\n',
    );
    expect(Object.fromEntries(values)).toEqual({
      A: '1',
      B: 'two words',
      C: 'quoted # kept\nnext',
      D: 'single',
      E: '',
    });
  });
});

describe('didYouMean', () => {
  it('suggests the closest name, or nothing when none is close', () => {
    expect(didYouMean('emailSubjet', ['emailSubject', 'emailBlurb'])).toBe('emailSubject');
    expect(didYouMean('recipents', ['recipients', 'documents'])).toBe('recipients');
    expect(didYouMean('zzz', ['recipients', 'documents'])).toBeUndefined();
  });
});
