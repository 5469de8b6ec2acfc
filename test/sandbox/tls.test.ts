import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { startSandbox } from '../../src/sandbox/index.js';

// `serve --tls` (src/sandbox/tls): HTTPS with a certificate from the
// sandbox's own CA, kept in the data folder so clients trust it across restarts.

const dataDir = mkdtempSync(join(tmpdir(), 'signrun-tls-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** GET over HTTPS trusting only `ca` (Node's default roots left out); the server's certificate too. */
function get(url: string, ca: string): Promise<{ status: number; body: string; peer: X509Certificate }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, agent: false }, (res) => {
      const peer = new X509Certificate((res.socket as TLSSocket).getPeerCertificate().raw);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), peer }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('signrun serve --tls', () => {
  it('serves HTTPS with a certificate its CA issued for the listening host; GET /sandbox/ca.pem is that CA; restarts reuse it', async () => {
    const first = await startSandbox({ port: 0, tls: true, dataDir });
    let caPem: string;
    try {
      expect(first.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(first.rootUrl).toBe(`${first.origin}/restapi/v2`);
      caPem = readFileSync(join(dataDir, 'tls', 'sandbox-tls-ca.pem'), 'utf8');
      // The CA's key: owner only.
      expect(statSync(join(dataDir, 'tls', 'sandbox-tls-ca.key')).mode & 0o777).toBe(0o600);
      const served = await get(`${first.origin}/sandbox/ca.pem`, caPem);
      expect(served.status).toBe(200);
      expect(served.body).toBe(caPem);
      const ca = new X509Certificate(caPem);
      expect(served.peer.checkIssued(ca)).toBe(true);
      expect(served.peer.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(served.peer.checkHost('localhost')).toBe('localhost');
      // Its certificate opens the health check too: the same server speaks HTTPS throughout.
      expect((await get(`${first.origin}/sandbox/health`, caPem)).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: 0, tls: true, dataDir });
    try {
      const served = await get(`${second.origin}/sandbox/ca.pem`, caPem);
      expect(served.body).toBe(caPem);
    } finally {
      await second.close();
    }
  });

  it('has no ca.pem without --tls', async () => {
    const plain = await startSandbox({ port: 0 });
    try {
      const r = await fetch(`${plain.origin}/sandbox/ca.pem`);
      expect(r.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
