import { describe, expect, it } from 'vitest';
import { parseCredentialsHeader } from '../../src/sandbox/esignature/authentication/credentials-header.js';
import { hashPassword, verifyPassword } from '../../src/sandbox/platform/password-hash.js';

describe('parseCredentialsHeader', () => {
  it.each([
    ['JSON', '{"Username":"u@x.test","Password":"p","IntegratorKey":"k"}'],
    ['JSON, any case of member names', '{"username":"u@x.test","PASSWORD":"p","integratorKey":"k"}'],
    [
      'XML',
      '<DocuSignCredentials><Username>u@x.test</Username><Password>p</Password><IntegratorKey>k</IntegratorKey></DocuSignCredentials>',
    ],
  ])('reads the %s form', (_name, header) => {
    expect(parseCredentialsHeader(header)).toEqual({ username: 'u@x.test', password: 'p', integratorKey: 'k' });
  });

  it('decodes XML entities in values', () => {
    const header =
      '<DocuSignCredentials><Username>a&amp;b</Username><Password>&lt;p&gt;&quot;</Password><IntegratorKey>k</IntegratorKey></DocuSignCredentials>';
    expect(parseCredentialsHeader(header)).toEqual({ username: 'a&b', password: '<p>"', integratorKey: 'k' });
  });

  it.each([
    ['not json'],
    ['{"Username":"u"}'],
    ['{broken'],
    ['<DocuSignCredentials><Username>u</Username></DocuSignCredentials>'],
    ['[]'],
  ])('refuses %s', (header) => {
    expect(parseCredentialsHeader(header)).toBeUndefined();
  });
});

describe('password hashes', () => {
  it('verifies the right password only, and never stores it', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
    expect(await verifyPassword('correct horse', 'plain:text')).toBe(false);
  });
});
