import { describe, expect, it } from 'vitest';
import { reportHtml, chartStatusOf } from '../../src/reporters/report-html.js';
import type { ReportSource } from '../../src/reporters/report-json.js';
import { totalsOf, type AccountResult, type EnvelopeResult } from '../../src/runner/run-summary.js';

const source = { file: 'jobs/offers.yaml', line: 12, column: 5 };

function envelope(key: string, fields: Partial<EnvelopeResult>): EnvelopeResult {
  return {
    job: 'offers',
    key,
    source,
    outcome: 'succeeded',
    recipients: [],
    files: [],
    apiCalls: 3,
    retries: 0,
    ...fields,
  };
}

function reportOfItems(envelopes: EnvelopeResult[], accounts: AccountResult[] = []): ReportSource {
  return {
    head: {
      schemaVersion: 1,
      runId: 'run-1',
      target: { rootUrl: 'https://demo.example.com/restapi/v2', sandbox: false },
      startedAt: '2026-11-20T10:00:00.000Z',
      endedAt: '2026-11-22T10:00:05.000Z',
      durationMs: 5000,
      interrupted: false,
      concurrency: 8,
      totals: totalsOf({ envelopes, accounts }),
      api: { calls: 9, retries: 0, failedCalls: 1, byOperation: {} },
    },
    accounts,
    envelopes: async function* () {
      yield* envelopes;
    },
  };
}

describe('report.html', () => {
  it('maps each envelope to one honest status: the service word, else what stopped it', () => {
    expect(chartStatusOf(envelope('a', { status: 'completed', envelopeId: 'x' }))).toBe('completed');
    expect(chartStatusOf(envelope('a', { status: 'created', envelopeId: 'x' }))).toBe('draft');
    expect(chartStatusOf(envelope('a', { outcome: 'failed' }))).toBe('failed');
    expect(chartStatusOf(envelope('a', { outcome: 'failed', status: 'sent', envelopeId: 'x' }))).toBe('sent');
    expect(chartStatusOf(envelope('a', { outcome: 'not-started' }))).toBe('not started');
  });

  it('after a sync, charts envelopes an earlier run sent by when their status changed, never as "not sent"', async () => {
    const synced = (key: string, status: string, statusAt?: string) =>
      envelope(key, { envelopeId: key, status, adopted: true, ...(statusAt ? { statusAt } : {}) });
    const html = await reportHtml(
      reportOfItems([
        synced('a', 'completed', '2026-11-21T09:10:00.000Z'),
        synced('b', 'declined', '2026-11-21T11:30:00.000Z'),
        synced('c', 'sent'),
      ]),
    );
    expect(html).not.toContain('>not sent<');
    expect(html).toContain('>sent earlier<');
    expect(html).toMatch(/completed<\/span> 1/);
    expect(html).toMatch(/declined<\/span> 1/);
    const unsent = await reportHtml(reportOfItems([envelope('d', { outcome: 'failed' })]));
    expect(unsent).toContain('>not sent<');
  });

  it('charts envelopes per day sent, lists who is still to sign and failures with file:line and next step; no script, nothing outside', async () => {
    const html = await reportHtml(
      reportOfItems([
        envelope('e1', {
          envelopeId: '1',
          status: 'sent',
          startedAt: '2026-11-20T10:00:00.000Z',
          recipients: [{ recipientId: '1', clientUserId: 'emp-0001', signing: 'ready' }],
        }),
        envelope('e2', {
          envelopeId: '2',
          status: 'completed',
          startedAt: '2026-11-21T09:00:00.000Z',
          recipients: [{ recipientId: '1', clientUserId: 'emp-0002', signing: 'ready' }],
        }),
        envelope('e3', {
          outcome: 'failed',
          error: { code: 'SR_ENVELOPE_FAILED', message: 'the service said no', step: 'create' },
        }),
      ]),
    );
    expect(html).toContain('<svg class="chart"');
    expect(html).toContain('2026-11-20');
    expect(html).toContain('2026-11-21');
    expect(html).toContain('Still to sign (1)');
    expect(html).toMatch(/emp-0001/);
    expect(html).not.toMatch(/<td>emp-0002/);
    expect(html).toContain('jobs/offers.yaml:12');
    expect(html).toContain('finished steps are not repeated'); // SR_ENVELOPE_FAILED's hint: the next step
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\/(?!demo\.example\.com)/);
  });

  it('escapes what comes from job files', async () => {
    const html = await reportHtml(reportOfItems([envelope('<img src=x onerror=alert(1)>', {})]));
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x');
  });

  it('caps each list, so that 100,000 envelopes make a light page', async () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      envelope(`k${i}`, { outcome: 'failed', error: { code: 'SR_ENVELOPE_FAILED', message: 'no' } }),
    );
    const html = await reportHtml(reportOfItems(many));
    expect(html).toContain('…and 800 more failures');
    expect(html).toContain('…and 800 more envelopes');
  });
});
