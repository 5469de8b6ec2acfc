import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './run-helpers.js';

/**
 * Credentials are bound to the configured service (issue 14, item 5): an
 * output folder whose envelope.json names another address (tampered, or
 * someone else's) must not receive the password of the environment.
 */
const PASSWORD = 'env-password-not-for-the-folder';
const seen: http.IncomingHttpHeaders[] = [];
let server: http.Server;
let stranger: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"errorCode":"USER_AUTHENTICATION_FAILED","message":"no"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stranger = `http://127.0.0.1:${(server.address() as AddressInfo).port}/restapi/v2`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('signrun sign-url and credentials', () => {
  it('refuses (SR_ROOT_URL_MISSING) to send configured credentials to the rootUrl an output folder names', async () => {
    const out = await tempDir('signrun-foreign-out-');
    const folder = path.join(out, 'job', 'key');
    await mkdir(folder, { recursive: true });
    const envelopeId = '11111111-2222-3333-4444-555555555555';
    await writeFile(
      path.join(folder, 'envelope.json'),
      JSON.stringify({
        job: 'job',
        key: 'key',
        envelopeId,
        rootUrl: stranger,
        accountId: '1',
        recipients: [],
        files: [],
      }),
    );
    await writeFile(
      path.join(folder, 'signing.json'),
      JSON.stringify({
        job: 'job',
        key: 'key',
        envelopeId,
        returnUrl: 'https://example.com/done',
        recipients: [
          { envelopeId, recipientId: '1', clientUserId: 'c1', email: 'a@example.com', userName: 'A', state: 'ready' },
        ],
      }),
    );
    const result = await runCli(['sign-url', out, 'job/key'], {
      cwd: out,
      env: { DOCUSIGN_USERNAME: 'me@example.com', DOCUSIGN_PASSWORD: PASSWORD, DOCUSIGN_INTEGRATOR_KEY: 'ik' },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_ROOT_URL_MISSING');
    expect(result.stderr).not.toContain(PASSWORD);
    expect(seen).toEqual([]);
  });
});
