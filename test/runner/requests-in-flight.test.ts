import { mkdtemp, readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { defaultRetryPolicy } from '../../src/client/retry-policy.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import { runCollected } from '../helpers/collected-run.js';
import { envelopeFixture } from './fixtures.js';

/**
 * --concurrency bounds the requests in flight, and within that bound an
 * envelope's independent calls overlap. Counted where it matters: at the
 * real sandbox's HTTP server, from the request's arrival to the end of its answer.
 */
let sandbox: RunningSandbox;
let inFlight = 0;
let peak = 0;
const track = (_req: IncomingMessage, res: ServerResponse) => {
  inFlight += 1;
  peak = Math.max(peak, inFlight);
  res.once('close', () => (inFlight -= 1));
};

beforeAll(async () => {
  // A delay on every answer, so that calls that can overlap do.
  sandbox = await startSandbox({ port: 0, quiet: true, latencyMs: 40 });
  sandbox.app.server.on('request', track);
});
afterAll(async () => {
  sandbox.app.server.off('request', track);
  await sandbox.close();
});

async function runWith(concurrency: number, keys: string[]) {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-inflight-'));
  peak = 0;
  const summary = await runCollected({
    jobs: [
      {
        file: '/jobs/runner-test.yaml',
        job: 'runner-test',
        envelopes: keys.map((k) => envelopeFixture(k)),
        accounts: [],
      },
    ],
    target: { rootUrl: sandbox.rootUrl, sandbox: false, auth: sandboxSeedAuth() },
    outDir,
    concurrency,
    documents: 'at-send',
  });
  return { summary, outDir, peak };
}

describe('requests in flight', () => {
  it('never exceed --concurrency, however many calls the envelopes could make at once', async () => {
    const { summary, peak: most } = await runWith(3, ['a', 'b', 'c', 'd', 'e', 'f']);
    expect(summary.envelopes.map((e) => e.outcome)).toEqual(Array(6).fill('succeeded'));
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBe(3);
  });

  it("overlaps one envelope's signing views and downloads, and keeps their order in the outputs", async () => {
    const { summary, outDir, peak: most } = await runWith(4, ['solo']);
    const [result] = summary.envelopes;
    expect(result?.outcome).toBe('succeeded');
    // One envelope alone: only its two views, or its two downloads, can be in flight together.
    expect(most).toBe(2);
    const signing = JSON.parse(
      await readFile(path.join(outDir, 'runner-test/solo/signing.json'), 'utf8'),
    ) as SigningRecord;
    expect(signing.recipients.map((r) => [r.recipientId, r.state])).toEqual([
      ['1', 'ready'],
      ['2', 'ready'],
    ]);
    const record = JSON.parse(
      await readFile(path.join(outDir, 'runner-test/solo/envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    expect(record.files.map((f) => f.path)).toEqual([
      'runner-test/solo/documents/1-offer-letter.pdf',
      'runner-test/solo/documents/2-company-handbook.pdf',
      'runner-test/solo/certificate.pdf',
    ]);
  });

  it('when one of the overlapping downloads fails, the other still finishes and is kept', async () => {
    // The sandbox cannot be told to fail one document on demand: a loopback
    // proxy in front of it answers 500 for document 2 and passes the rest through.
    const target = new URL(sandbox.rootUrl);
    const proxy = http.createServer((req, res) => {
      if (/\/envelopes\/[^/]+\/documents\/2$/.test(req.url ?? '')) {
        req.resume();
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ errorCode: 'UNSPECIFIED_ERROR', message: 'document store unavailable' }));
        return;
      }
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          if (!req.url?.endsWith('/login_information')) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          // The account's baseUrl must lead through the proxy too.
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const body = Buffer.concat(chunks).toString().replaceAll(target.origin, proxyOrigin);
            res.writeHead(answer.statusCode ?? 502, { 'Content-Type': 'application/json' });
            res.end(body);
          });
        },
      );
      req.pipe(forward);
    });
    let proxyOrigin = '';
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      proxyOrigin = `http://127.0.0.1:${port}`;
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-inflight-'));
      const summary = await runCollected({
        jobs: [
          { file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes: [envelopeFixture('half')], accounts: [] },
        ],
        target: { rootUrl: `${proxyOrigin}${target.pathname}`, sandbox: false, auth: sandboxSeedAuth() },
        outDir,
        concurrency: 4,
        documents: 'at-send',
        retryPolicy: { ...defaultRetryPolicy, limit: 1 },
      });
      const [result] = summary.envelopes;
      expect(result?.outcome).toBe('failed');
      expect(result?.error).toMatchObject({ step: 'documents', status: 500, serviceErrorCode: 'UNSPECIFIED_ERROR' });
      const record = JSON.parse(
        await readFile(path.join(outDir, 'runner-test/half/envelope.json'), 'utf8'),
      ) as EnvelopeRecord;
      expect(record.files.map((f) => f.path)).toEqual(['runner-test/half/documents/1-offer-letter.pdf']);
      const kept = await readFile(path.join(outDir, 'runner-test/half/documents/1-offer-letter.pdf'));
      expect(kept.subarray(0, 5).toString()).toBe('%PDF-');
      expect(record.files[0]?.size).toBe(kept.length);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
