import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { isSecret } from '../../src/secret.js';
import { repoRoot } from '../helpers/run-cli.js';

// The JWT grant's settings (DESIGN.md, "Contract: today's DocuSign"): read
// and checked before any network call, the key held as a Secret.

const scratch = join(repoRoot, `test/.tmp/config-jwt-${process.pid}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "p" }\n');
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
}

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs1',
  format: 'pem',
}) as string;
const keyBody = pem.split('\n')[1]!;
const userId = '7c1e9b2d-4a6f-4d3e-8b5a-2f0e6d9c4b22';

describe('loadConfig: the JWT grant', () => {
  it('reads the private key file relative to the config file, holds it as a Secret, and takes the environment first', async () => {
    const dir = project('file', {
      'docusign.key': pem,
      '.signrunrc.yaml': `apiVersion: v2\ncredentials:\n  integratorKey: ik\n  userId: ${userId}\n  privateKeyFile: docusign.key\n  oauthBase: account-d.docusign.com\n`,
    });
    const result = await loadConfig({
      cwd: join(dir, '..'),
      configFile: join(dir, '.signrunrc.yaml'),
      env: { DOCUSIGN_ACCOUNT_ID: 'acc-1' },
    });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const c = result.config.credentials;
    expect(isSecret(c.privateKey)).toBe(true);
    expect(c.privateKey!.reveal()).toBe(pem);
    expect(c.privateKeyFile).toBe(join(dir, 'docusign.key'));
    expect(c.oauthBase).toBe('account-d.docusign.com');
    expect(c.accountId).toBe('acc-1');
    expect(result.config.apiVersion).toBe('v2');
    expect(JSON.stringify(result.config)).not.toContain(keyBody);
  });

  it('takes the PEM itself from DOCUSIGN_PRIVATE_KEY, also with its newlines written as \\n', async () => {
    const result = await loadConfig({
      cwd: project('env-pem', {}),
      env: {
        DOCUSIGN_INTEGRATOR_KEY: 'ik',
        DOCUSIGN_USER_ID: userId,
        DOCUSIGN_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
        DOCUSIGN_OAUTH_BASE: 'http://127.0.0.1:8080',
      },
    });
    expect(result.ok && result.config.credentials.privateKey?.reveal()).toBe(pem);
  });

  it('names a missing key file, a file that is no key, and a half-configured grant, before any call', async () => {
    const dir = project('bad', { 'not-a-key.pem': 'hello\n' });
    const base = {
      DOCUSIGN_INTEGRATOR_KEY: 'ik',
      DOCUSIGN_USER_ID: userId,
      DOCUSIGN_OAUTH_BASE: 'account-d.docusign.com',
    };
    const missing = await loadConfig({ cwd: dir, env: { ...base, DOCUSIGN_PRIVATE_KEY_FILE: 'nope.key' } });
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.errors[0]).toMatchObject({ code: 'SR_CONFIG_PRIVATE_KEY', file: 'DOCUSIGN_PRIVATE_KEY_FILE' });
      expect(missing.errors[0]!.message).toContain('nope.key');
    }
    const junk = await loadConfig({ cwd: dir, env: { ...base, DOCUSIGN_PRIVATE_KEY_FILE: 'not-a-key.pem' } });
    expect(!junk.ok && junk.errors[0]!.code).toBe('SR_CONFIG_PRIVATE_KEY');
    expect(JSON.stringify(junk)).not.toContain('hello');
    const half = await loadConfig({ cwd: dir, env: { DOCUSIGN_USER_ID: userId } });
    expect(!half.ok && half.errors[0]!.code).toBe('SR_CONFIG_JWT_INCOMPLETE');
    expect(!half.ok && half.errors[0]!.message).toContain('DOCUSIGN_PRIVATE_KEY_FILE');
    const badBase = await loadConfig({
      cwd: dir,
      env: { ...base, DOCUSIGN_PRIVATE_KEY: pem, DOCUSIGN_OAUTH_BASE: 'ftp://account-d.docusign.com' },
    });
    expect(!badBase.ok && badBase.errors[0]!.code).toBe('SR_CONFIG_ENV_INVALID');
    const badVersion = await loadConfig({ cwd: dir, env: { DOCUSIGN_API_VERSION: 'v3' } });
    expect(!badVersion.ok && badVersion.errors[0]!.code).toBe('SR_CONFIG_ENV_INVALID');
  });

  it('warns about a private key written in the config file, and the schema knows the new fields', async () => {
    const dir = project('in-file', {
      '.signrunrc.json': JSON.stringify({
        credentials: { integratorKey: 'ik', userId, privateKey: pem, oauthBase: 'account-d.docusign.com' },
      }),
    });
    const result = await loadConfig({ cwd: dir, env: {} });
    expect(result.ok && result.warnings.map((w) => w.code)).toEqual(['SR_CONFIG_SECRET_IN_FILE']);
    const typo = project('typo', { '.signrunrc.yaml': 'credentials:\n  privateKeyPath: k.pem\n' });
    const bad = await loadConfig({ cwd: typo, env: {} });
    expect(!bad.ok && bad.errors[0]!.message).toContain('did you mean "privateKeyFile"');
  });
});
