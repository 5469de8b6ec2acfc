import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultSpool } from '../../src/output/result-spool.js';
import { SummaryCollector, exitCodeOf, type EnvelopeResult } from '../../src/runner/run-summary.js';
import { collected } from '../helpers/collected-run.js';

const folders: string[] = [];
afterEach(async () => {
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

const source = { file: '/jobs/a.yaml', line: 3, column: 5 };
function result(key: string, outcome: EnvelopeResult['outcome'], waiting = 0): EnvelopeResult {
  return {
    job: 'a',
    key,
    source,
    outcome,
    recipients: Array.from({ length: waiting }, (_, i) => ({
      recipientId: String(i + 2),
      signing: 'waiting-for-turn' as const,
    })),
    files: [],
    apiCalls: 0,
    retries: 0,
  };
}

async function collector(capacity: number) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'signrun-collector-'));
  folders.push(dir);
  const spool = await ResultSpool.create<EnvelopeResult>(path.join(dir, 'results.jsonl'), capacity);
  return new SummaryCollector({
    runId: 'r',
    target: { rootUrl: 'http://127.0.0.1:1/restapi/v2', sandbox: false },
    startedAt: '2026-11-21T00:00:00.000Z',
    concurrency: 2,
    outDir: dir,
    spool,
  });
}

describe('SummaryCollector', () => {
  it('counts results as they come, hands them back in job-file order and forgets an item’s call counter once it is done', async () => {
    const c = await collector(3);
    const request = (tag: string) =>
      c.listener({ type: 'request', operation: 'createEnvelope', method: 'POST', status: 201, tag } as never);
    request('a/k2');
    request('a/k2');
    c.listener({ type: 'retry', tag: 'a/k2' } as never);
    expect(c.usageOf('a/k2')).toEqual({ calls: 2, retries: 1 });
    c.envelopeDone(2, { ...result('k2', 'succeeded', 1), apiCalls: 2, retries: 1 });
    expect(c.usageOf('a/k2')).toEqual({ calls: 0, retries: 0 });
    c.envelopeDone(0, result('k0', 'failed'));
    expect(c.hasEnvelope(1)).toBe(false);
    c.envelopeDone(1, result('k1', 'not-started'));
    c.listener({ type: 'run:end', endedAt: '2026-11-21T00:00:02.000Z', interrupted: false });
    const summary = await collected(await c.summary());
    expect(summary.envelopes.map((e) => e.key)).toEqual(['k0', 'k1', 'k2']);
    expect(summary.totals.envelopes).toEqual({ total: 3, succeeded: 1, failed: 1, notStarted: 1, waitingForTurn: 1 });
    expect(summary.api).toMatchObject({ calls: 2, retries: 1, byOperation: { createEnvelope: 2 } });
    expect(summary.durationMs).toBe(2000);
    expect(exitCodeOf(summary)).toBe(1);
  });
});
