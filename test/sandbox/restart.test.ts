import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authHeader, call, documentEnvelope, login, makePdf } from './helpers/api.js';
import { spawnServe, type ServeProcess } from './helpers/serve-process.js';

// The real bin, killed with SIGKILL right after a 201: nothing acknowledged may be lost.
const dirs: string[] = [];
const processes: ServeProcess[] = [];
afterEach(() => {
  for (const p of processes.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('restart', () => {
  it('keeps envelopes, documents, tokens and accounts after SIGKILL, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signrun-sandbox-'));
    dirs.push(dataDir);
    const first = await spawnServe(['--data', dataDir]);
    processes.push(first);
    const { baseUrl } = await login(first.rootUrl);
    const pdf = await makePdf(2, 'kept');
    const created = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: documentEnvelope(pdf, { transactionId: 'tx-restart' }),
    });
    expect(created.status).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const token = await call(`${first.rootUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: new URLSearchParams({
        grant_type: 'password',
        client_id: 'sandbox-integrator-key',
        username: 'sandbox@signrun.test',
        password: 'sandbox-password',
      }).toString(),
    });
    expect(token.status).toBe(201);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await spawnServe(['--data', dataDir]);
    processes.push(second);
    const again = await login(second.rootUrl);
    const read = await call(`${again.baseUrl}/envelopes/${envelopeId}`, { headers: authHeader() });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ envelopeId, status: 'sent', transactionId: 'tx-restart' });
    const recipients = await call(`${again.baseUrl}/envelopes/${envelopeId}/recipients`, { headers: authHeader() });
    expect(recipients.json.signers.map((s: { status: string }) => s.status)).toEqual(['sent', 'created']);
    const document = await call(`${again.baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(document.bytes.equals(pdf)).toBe(true);
    // A bearer token issued before the kill still works.
    const withToken = await call(`${second.rootUrl}/login_information`, {
      headers: { Authorization: `Bearer ${token.json.access_token}` },
    });
    expect(withToken.status).toBe(200);
    // The seed is not applied twice, and the output says so; no password is printed.
    expect(first.output()).toContain('built-in seed');
    expect(second.output()).toContain('existing data kept');
    expect(first.output() + second.output()).not.toContain('sandbox-password');

    // The restarted one shuts down gracefully on SIGTERM (exit 0, database closed). It was a test of its own,
    // with a third `serve` on a fresh folder; the one already running on its data shows the same (issue 38).
    second.child.kill('SIGTERM');
    const { code } = await second.exited;
    expect(code).toBe(0);
    expect(second.output()).toContain('sandbox stopped');
  });
});
