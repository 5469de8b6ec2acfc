import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindStateTarget, checkStateTarget } from '../../src/state/state-target.js';
import { SignrunError } from '../../src/errors/signrun-error.js';

async function stateDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'signrun-state-target-'));
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof SignrunError ? error.code : `not a SignrunError: ${String(error)}`;
  }
}

describe('state folder target', () => {
  it('binds on first use, accepts the same service in another spelling, refuses another one', async () => {
    const dir = await stateDir();
    expect(await checkStateTarget(dir, 'http://127.0.0.1:8080/restapi/v2')).toBeUndefined();
    await bindStateTarget(dir, 'http://127.0.0.1:8080/restapi/v2');
    const written = JSON.parse(await readFile(path.join(dir, 'target.json'), 'utf8')) as { rootUrl: string };
    expect(written.rootUrl).toBe('http://127.0.0.1:8080/restapi/v2');
    await bindStateTarget(dir, 'http://127.0.0.1:8080/restapi/v2.1/');
    expect(await codeOf(bindStateTarget(dir, 'https://demo.docusign.net/restapi/v2'))).toBe('SR_STATE_OTHER_TARGET');
  });

  it('reports a target.json that is not its own (broken JSON, wrong shape) with the same code', async () => {
    for (const content of ['{ not json', '[]', 'null', '{"rootUrl": 3, "since": "x"}']) {
      const dir = await stateDir();
      await writeFile(path.join(dir, 'target.json'), content);
      expect(await codeOf(checkStateTarget(dir, 'http://127.0.0.1:8080/restapi/v2')), content).toBe(
        'SR_STATE_OTHER_TARGET',
      );
    }
  });
});

describe('state folder target and a root URL with a password (issue 14, item 10)', () => {
  it('stores the address without its user name and password, readable by its owner only', async () => {
    const dir = await stateDir();
    await bindStateTarget(dir, 'https://me:hunter2-secret@demo.example.com/restapi/v2');
    const file = path.join(dir, 'target.json');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('hunter2-secret');
    expect((JSON.parse(text) as { rootUrl: string }).rootUrl).toBe('https://demo.example.com/restapi/v2');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
