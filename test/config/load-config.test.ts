import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { isSecret } from '../../src/secret.js';
import { repoRoot } from '../helpers/run-cli.js';

const scratch = join(repoRoot, `test/.tmp/config-${process.pid}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A package.json marks the project root, where cosmiconfig's search stops.
  writeFileSync(join(dir, 'package.json'), '{ "name": "p" }\n');
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
}

describe('loadConfig', () => {
  it('has defaults when there is no file and no environment', async () => {
    const result = await loadConfig({ cwd: project('none', {}), env: {} });
    expect(result).toEqual({ ok: true, config: { credentials: {}, concurrency: 8, outDir: 'out' }, warnings: [] });
  });

  it('reads a .signrunrc.yaml and lets DOCUSIGN_* override it, wrapping secrets', async () => {
    const dir = project('file', {
      '.signrunrc.yaml':
        'rootUrl: https://demo.docusign.net/restapi/v2/\nconcurrency: 4\noutDir: results\ncredentials:\n  username: file-user\n  integratorKey: file-key\n',
    });
    const result = await loadConfig({
      cwd: dir,
      env: {
        DOCUSIGN_USERNAME: 'env-user',
        DOCUSIGN_PASSWORD: 'env-password',
        DOCUSIGN_DISTRIBUTOR_PASSWORD: 'dist',
        DOCUSIGN_ACCESS_TOKEN: '',
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { config } = result;
    expect(config.rootUrl).toBe('https://demo.docusign.net/restapi/v2');
    expect(config.concurrency).toBe(4);
    expect(config.outDir).toBe(join(dir, 'results'));
    expect(config.configFile).toBe(join(dir, '.signrunrc.yaml'));
    expect(config.credentials.username).toBe('env-user');
    expect(config.credentials.integratorKey).toBe('file-key');
    expect(config.credentials.accessToken).toBeUndefined();
    expect(isSecret(config.credentials.password)).toBe(true);
    expect(config.credentials.password!.reveal()).toBe('env-password');
    expect(JSON.stringify(config)).not.toMatch(/env-password|dist"/);
  });

  it('reads the `signrun` field of package.json', async () => {
    const dir = project('pkg', {});
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', signrun: { concurrency: 2 } }));
    const result = await loadConfig({ cwd: dir, env: {} });
    expect(result.ok && result.config.concurrency).toBe(2);
  });

  it('reports schema errors with a did-you-mean at the line of the field', async () => {
    const dir = project('typo', { '.signrunrc.yaml': 'rootUrl: https://x.example/restapi/v2\nconcurency: 3\n' });
    const result = await loadConfig({ cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject([
      { code: 'SR_CONFIG_INVALID', file: '.signrunrc.yaml', line: 2, column: 1, field: 'concurency' },
    ]);
    expect(result.errors[0]!.message).toContain('concurrency');
  });

  it('refuses a bad root URL from the file or the environment, and bad syntax', async () => {
    const dir = project('bad', { '.signrunrc.json': '{ "concurrency": 0 }' });
    const low = await loadConfig({ cwd: dir, env: {} });
    expect(!low.ok && low.errors.map((e) => e.code)).toEqual(['SR_CONFIG_INVALID']);
    const fromEnv = await loadConfig({ cwd: project('env', {}), env: { DOCUSIGN_ROOT_URL: 'ftp://example.com' } });
    expect(!fromEnv.ok && fromEnv.errors.map((e) => e.code)).toEqual(['SR_CONFIG_ENV_INVALID']);
    const syntax = await loadConfig({ cwd: project('syntax', { '.signrunrc.yaml': 'rootUrl: [unclosed\n' }), env: {} });
    expect(!syntax.ok && syntax.errors.map((e) => e.code)).toEqual(['SR_CONFIG_SYNTAX']);
    const missing = await loadConfig({ cwd: project('missing', {}), env: {}, configFile: 'nope.yaml' });
    expect(!missing.ok && missing.errors.map((e) => e.code)).toEqual(['SR_CONFIG_NOT_FOUND']);
  });

  it('warns about secrets written in the file without repeating them', async () => {
    const dir = project('secret', { '.signrunrc.yaml': 'credentials:\n  username: u\n  password: hunter2-in-file\n' });
    const result = await loadConfig({ cwd: dir, env: {} });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings).toMatchObject([
      { code: 'SR_CONFIG_SECRET_IN_FILE', severity: 'warning', line: 3, field: 'credentials.password' },
    ]);
    expect(JSON.stringify(result)).not.toContain('hunter2-in-file');
    expect(result.config.credentials.password!.reveal()).toBe('hunter2-in-file');
  });
});
