import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf, rawRequest } from './helpers/api.js';
import { createActiveSubsidiary } from './helpers/accounts.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// A real fault (a document file removed behind the service's back) must give
// a 500 in DocuSign's shape that reveals nothing of the machine.
let sandbox: RunningSandbox;
let dataDir: string;
const logged: string[] = [];
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'signrun-sandbox-'));
  sandbox = await injectedSandbox({ dataDir, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('internal errors', () => {
  it('answers 500 UNSPECIFIED_ERROR without paths or stack when a document file is gone', async () => {
    const { baseUrl } = await login(sandbox.rootUrl);
    const pdf = await makePdf(1, 'will vanish');
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: documentEnvelope(pdf) });
    rmSync(join(dataDir, 'blobs'), { recursive: true, force: true });
    const r = await call(`${baseUrl}/envelopes/${created.json.envelopeId}/documents/1`, { headers: authHeader() });
    expectApiError(r, 500, 'UNSPECIFIED_ERROR');
    const text = r.bytes.toString();
    expect(text).not.toContain(dataDir);
    expect(text).not.toContain('ENOENT');
    expect(text).not.toMatch(/at .*\.js/);
    // The operator's log has the detail, under the route pattern.
    expect(
      logged.find((l) =>
        l.startsWith(
          'internal error on GET /restapi/v2/accounts/:accountId/envelopes/:envelopeId/documents/:documentId',
        ),
      ),
    ).toContain('ENOENT');
  });
});

describe('request log', () => {
  it('names the route pattern, the status and DocuSign errorCode, never credentials', async () => {
    await call(`${sandbox.rootUrl}/login_information`, {
      headers: authHeader({
        username: 'sandbox@signrun.test',
        password: 'wrong-secret',
        integratorKey: 'sandbox-integrator-key',
      }),
    });
    await call(`${sandbox.rootUrl}/no/such/path`);
    expect(logged.some((l) => /^GET \/restapi\/v2\/login_information 401 USER_AUTHENTICATION_FAILED \d/.test(l))).toBe(
      true,
    );
    expect(logged.some((l) => /^GET \(no route\) 404 RESOURCE_NOT_FOUND/.test(l))).toBe(true);
    expect(logged.join('\n')).not.toContain('wrong-secret');
  });
});

describe('DELETE with a {} body', () => {
  it('deletes a subsidiary account when the client sends {} as DocuSign clients do', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'Braces', 'braces@example.com');
    const r = await rawRequest(
      `${sandbox.rootUrl}/accounts/${sub.accountId}`,
      'DELETE',
      { ...authHeader(sub.credentials), 'content-type': 'application/json' },
      '{}',
    );
    expect(r.status).toBe(200);
    expect((await call(`${sandbox.rootUrl}/login_information`, { headers: authHeader(sub.credentials) })).status).toBe(
      401,
    );
  });
});
