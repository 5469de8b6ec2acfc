import { describe, expect, it } from 'vitest';
import { reportJson, reportJsonChunks, reportOf } from '../../src/output/report-json.js';
import { reportMarkdown } from '../../src/output/report-markdown.js';
import { reportJunit } from '../../src/output/report-junit.js';
import { checkReport } from '../../src/output/report-schema.js';
import { mergeReports } from '../../src/output/merge-reports.js';
import { consoleSummary } from '../../src/output/console-summary.js';
import { exitCodeOf, type RunSummary } from '../../src/runner/run-summary.js';

const source = { file: '/repo/jobs/offers.yaml', line: 12, column: 5 };

function summary(overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    runId: 'run-1',
    target: { rootUrl: 'https://user:pw@demo.example.com/restapi/v2?token=abc', sandbox: false },
    startedAt: '2026-11-20T10:00:00.000Z',
    endedAt: '2026-11-20T10:00:05.000Z',
    durationMs: 5000,
    interrupted: false,
    concurrency: 8,
    outDir: '/repo/out',
    envelopes: [
      {
        job: 'offers',
        key: 'ok',
        source,
        outcome: 'succeeded',
        envelopeId: 'e1',
        recipients: [
          { recipientId: '1', clientUserId: 'c1', signing: 'ready' },
          { recipientId: '2', clientUserId: 'c2', routingOrder: '2', signing: 'waiting-for-turn' },
        ],
        files: [{ path: 'offers/ok/envelope.json', size: 10, sha256: 'a'.repeat(64) }],
        apiCalls: 7,
        retries: 0,
      },
      {
        job: 'offers',
        key: 'bad <&>',
        source,
        outcome: 'failed',
        recipients: [],
        files: [],
        apiCalls: 1,
        retries: 2,
        error: {
          code: 'SR_HTTP_STATUS',
          message: 'POST /x answered 400 INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: "bad" <&>',
          step: 'create',
          status: 400,
          serviceErrorCode: 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT',
        },
      },
      {
        job: 'offers',
        key: 'later',
        source,
        outcome: 'not-started',
        recipients: [],
        files: [],
        apiCalls: 0,
        retries: 0,
      },
    ],
    accounts: [
      {
        job: 'subs',
        key: 'acme',
        source,
        state: 'present',
        outcome: 'created',
        awaitingActivation: true,
        accountId: 'a1',
        userId: 'u1',
        files: [],
        apiCalls: 1,
        retries: 0,
      },
    ],
    api: {
      calls: 9,
      retries: 2,
      failedCalls: 3,
      byOperation: { createEnvelope: 2 },
      rateLimit: { limit: 3000, remaining: 2991 },
    },
    ...overrides,
  };
}

describe('reporters', () => {
  it('report.json follows its schema, names files relative to the working folder and strips user info from the target', () => {
    const report = reportOf(summary(), '/repo');
    expect(checkReport(report)).toEqual([]);
    expect(report.envelopes[0]?.source.file).toBe('jobs/offers.yaml');
    expect(report.target.rootUrl).toBe('https://demo.example.com/restapi/v2');
    expect(report.totals.envelopes).toEqual({ total: 3, succeeded: 1, failed: 1, notStarted: 1, waitingForTurn: 1 });
    expect(report.totals.accounts.created).toBe(1);
  });

  it('report.json streamed in chunks is the same text as in one piece', () => {
    for (const r of [reportOf(summary()), reportOf(summary({ envelopes: [], accounts: [] }))]) {
      expect([...reportJsonChunks(r)].join('')).toBe(reportJson(r));
    }
  });

  it('the schema refuses what it does not describe', () => {
    const report = reportOf(summary()) as unknown as Record<string, unknown>;
    expect(checkReport({ ...report, extra: 1 })).not.toEqual([]);
    expect(checkReport({ ...report, envelopes: [{ job: 'x' }] })).not.toEqual([]);
  });

  it('report.md lists failures, waiting signers, accounts awaiting activation and interrupted work', () => {
    const md = reportMarkdown(reportOf(summary()));
    expect(md).toMatch(/^# signrun run failed/);
    expect(md).toContain('SR_HTTP_STATUS');
    expect(md).toContain('## Waiting for their turn');
    expect(md).toContain('`c2`');
    expect(md).toContain('## Accounts awaiting activation');
    expect(md).toContain('1 item(s) were not started');
    expect(md).toContain('2991/3000 left');
  });

  it('junit.xml has one test case per envelope and account, escaped, with failures and skips counted', () => {
    const xml = reportJunit(reportOf(summary()));
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testsuites name="signrun run run-1" tests="4" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('name="bad &lt;&amp;&gt;"');
    expect(xml).toContain('<failure type="SR_HTTP_STATUS"');
    expect(xml).not.toMatch(/<[^>]*"bad" <&>/);
  });

  it('exit codes: 1 with a failure, 130 when interrupted, 0 otherwise', () => {
    expect(exitCodeOf(summary())).toBe(1);
    expect(exitCodeOf(summary({ interrupted: true }))).toBe(130);
    expect(exitCodeOf(summary({ envelopes: [], accounts: [] }))).toBe(0);
  });

  it('merging keeps the best outcome of an item seen twice and sums API use', () => {
    const a = reportOf(summary());
    const b = reportOf(
      summary({
        runId: 'run-2',
        envelopes: [{ ...summary().envelopes[1]!, outcome: 'succeeded', error: undefined }] as RunSummary['envelopes'],
      }),
    );
    delete (b.envelopes[0] as { error?: unknown }).error;
    const merged = mergeReports([a, b], 'merged-1');
    expect(checkReport(merged)).toEqual([]);
    expect(merged.envelopes.find((e) => e.key === 'bad <&>')?.outcome).toBe('succeeded');
    expect(merged.api.calls).toBe(18);
    expect(merged.mergedFrom).toEqual(['run-1', 'run-2']);
    expect(merged.totals.envelopes.total).toBe(3);
  });

  it('the console summary says what failed, where, and what to do next', () => {
    const plain = {
      red: (x: string) => x,
      green: (x: string) => x,
      yellow: (x: string) => x,
      bold: (x: string) => x,
      dim: (x: string) => x,
    };
    const text = consoleSummary(reportOf(summary(), '/repo'), { outShown: 'out', colour: plain });
    expect(text).toMatch(
      /^Finished with failures in 5\.0 s: 1 of 3 envelope\(s\) sent, 1 failed; account\(s\): 1 created \(awaiting activation\)\./,
    );
    expect(text).toContain('jobs/offers.yaml:12:5 offers/bad <&> SR_HTTP_STATUS (create)');
    expect(text).toContain('1 item(s) not started');
    expect(text).toContain('run the same command again');
    expect(text).toContain('Outputs in out');
    const sandbox = consoleSummary(
      reportOf(summary({ target: { rootUrl: 'http://127.0.0.1:1/restapi/v2', sandbox: true } })),
      { outShown: 'out', colour: plain },
    );
    expect(sandbox).toContain('in-process sandbox stopped');
    expect(sandbox).not.toContain('sign-url out');
  });
});
