import { mkdtemp, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
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
});
