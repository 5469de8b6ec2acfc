import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  hashSeedPassword,
  knownMatch,
  verifyPassword,
} from '../../src/sandbox/platform/password-hash.js';
import { generatedDocument } from '../../src/sandbox/platform/pdf/generated-document.js';
import { buildSandboxApp } from '../../src/sandbox/app.js';
import { namedPlugin } from '../../src/sandbox/platform/http/plugin-name.js';
import Fastify, { type FastifyInstance } from 'fastify';
import glob from 'fast-glob';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What a sandbox's start makes once per process (issue 38: the suite starts
 * about a hundred sandboxes in two processes): the seeded users' password
 * hashes, the seeded templates' generated PDFs, and the plugin names fastify
 * would otherwise look up by walking the module cache.
 */
describe('made once per process', () => {
  it("a seed password's hash is made once, verifies it and nothing else; passwords set through the API keep their own salt", async () => {
    const first = await hashSeedPassword('seed-password-1');
    expect(await hashSeedPassword('seed-password-1')).toBe(first);
    expect(await hashSeedPassword('seed-password-2')).not.toBe(first);
    expect(await verifyPassword('seed-password-1', first)).toBe(true);
    expect(await verifyPassword('seed-password-2', first)).toBe(false);
    expect(first).not.toContain('seed-password-1');
    expect(await hashPassword('api-password')).not.toBe(await hashPassword('api-password'));
  });

  it("a seed password's hash is known to match that password as soon as it is made (a first login needs no scrypt), and no other", async () => {
    const stored = await hashSeedPassword('seed-password-first-login');
    expect(knownMatch('seed-password-first-login', stored)).toBe(true);
    expect(knownMatch('seed-password-other', stored)).toBe(false);
    expect(await verifyPassword('seed-password-other', stored)).toBe(false);
    expect(await verifyPassword('seed-password-first-login', stored)).toBe(true);
    // A password set through the API is known only once a login has verified it with scrypt.
    const api = await hashPassword('api-password-first-login');
    expect(knownMatch('api-password-first-login', api)).toBe(false);
    expect(await verifyPassword('api-password-first-login', api)).toBe(true);
    expect(knownMatch('api-password-first-login', api)).toBe(true);
  });

  it('a remembered match is for that pair only: a wrong password after a right one still fails', async () => {
    const stored = await hashPassword('right-password');
    expect(await verifyPassword('right-password', stored)).toBe(true);
    expect(await verifyPassword('right-password', stored)).toBe(true);
    expect(await verifyPassword('wrong-password', stored)).toBe(false);
    expect(await verifyPassword('right-password', await hashPassword('other-password'))).toBe(false);
  });

  it("a seeded template's generated PDF is the same bytes every time, and each caller gets its own copy", async () => {
    const a = await generatedDocument('Offer', ['Template t1', 'Document 1: Offer']);
    const b = await generatedDocument('Offer', ['Template t1', 'Document 1: Offer']);
    expect(a.equals(b)).toBe(true);
    expect(a.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    a.fill(0);
    expect((await generatedDocument('Offer', ['Template t1', 'Document 1: Offer'])).equals(b)).toBe(true);
    expect((await generatedDocument('Offer', ['Template t2'])).equals(b)).toBe(false);
  });

  it('two sandboxes of one process seed users who can both log in with the seed password', async () => {
    const apps = [await buildSandboxApp({ quiet: true }), await buildSandboxApp({ quiet: true })];
    try {
      for (const app of apps) {
        const res = await app.inject({
          method: 'GET',
          url: '/restapi/v2.1/login_information',
          headers: {
            'x-docusign-authentication': JSON.stringify({
              Username: 'sandbox@signrun.test',
              Password: 'sandbox-password',
              IntegratorKey: 'sandbox-integrator-key',
            }),
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      for (const app of apps) await app.close();
    }
  });

  it('a named plugin is known to fastify by its name, without the module-cache lookup', async () => {
    const app = Fastify();
    let seen = '';
    await app.register(
      namedPlugin('probe-group', async (instance: FastifyInstance) => {
        seen = instance.pluginName;
      }),
    );
    await app.ready();
    await app.close();
    expect(seen).toContain('probe-group');
  });

  it('every plugin the sandbox registers is named (a new one without a name is found here)', async () => {
    const files = await glob('src/sandbox/**/*.ts', { cwd: root, absolute: true });
    const unnamed: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      // The seed's `redirectUris.register(key, uris)` is a store of the sandbox's, not fastify's.
      for (const match of text.matchAll(/(\w+)\.register\(\s*([^\n]*)/g))
        if (match[1] !== 'redirectUris' && !match[2]!.startsWith('namedPlugin('))
          unnamed.push(`${path.relative(root, file)}: ${match[0]}`);
    }
    expect(unnamed).toEqual([]);
  });
});
