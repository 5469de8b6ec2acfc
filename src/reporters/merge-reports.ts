import { randomUUID } from 'node:crypto';
import { totalsOf } from '../runner/run-summary.js';
import type { AccountResult, EnvelopeResult } from '../runner/run-summary.js';
import type { RunReport } from './report-json.js';

const rank = {
  succeeded: 3,
  created: 3,
  'up-to-date': 3,
  deleted: 3,
  'already-absent': 3,
  failed: 2,
  'not-started': 1,
} as const;

/**
 * Combines the reports of shards (`run --shard K/N`) into one: items
 * concatenated (an item present in several keeps its best outcome, then the
 * latest), API use summed, the earliest start and the latest end. The
 * merged report names the runs it combines in `mergedFrom`.
 */
export function mergeReports(reports: RunReport[], runId: string = randomUUID()): RunReport {
  const envelopes = new Map<string, EnvelopeResult>();
  const accounts = new Map<string, AccountResult>();
  const byOperation: Record<string, number> = {};
  let calls = 0;
  let retries = 0;
  let failedCalls = 0;
  const sorted = [...reports].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const report of sorted) {
    for (const e of report.envelopes) keepBest(envelopes, e);
    for (const a of report.accounts) keepBest(accounts, a);
    calls += report.api.calls;
    retries += report.api.retries;
    failedCalls += report.api.failedCalls;
    for (const [op, n] of Object.entries(report.api.byOperation)) byOperation[op] = (byOperation[op] ?? 0) + n;
  }
  const first = sorted[0];
  const startedAt = first?.startedAt ?? new Date().toISOString();
  const endedAt = sorted.reduce((latest, r) => (r.endedAt > latest ? r.endedAt : latest), startedAt);
  const latestRate = [...sorted].reverse().find((r) => r.api.rateLimit)?.api.rateLimit;
  const merged: RunReport = {
    schemaVersion: 1,
    runId,
    mergedFrom: sorted.flatMap((r) => r.mergedFrom ?? [r.runId]),
    target: first?.target ?? { rootUrl: '', sandbox: false },
    startedAt,
    endedAt,
    durationMs: Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)),
    interrupted: sorted.some((r) => r.interrupted),
    concurrency: sorted.reduce((n, r) => Math.max(n, r.concurrency), 1),
    totals: totalsOf({ envelopes: [...envelopes.values()], accounts: [...accounts.values()] }),
    api: { calls, retries, failedCalls, byOperation, ...(latestRate ? { rateLimit: latestRate } : {}) },
    envelopes: [...envelopes.values()],
    accounts: [...accounts.values()],
  };
  // A shard stopped by its call budget still matters only while items it left are not started in any report.
  const spent = sorted.filter((r) => r.callBudget?.exhausted);
  const left = merged.totals.envelopes.notStarted + merged.totals.accounts.notStarted;
  if (spent.length > 0 && left > 0) {
    const resumeAt = spent.reduce<string | undefined>(
      (latest, r) =>
        r.callBudget?.resumeAt && (!latest || r.callBudget.resumeAt > latest) ? r.callBudget.resumeAt : latest,
      undefined,
    );
    merged.callBudget = {
      used: spent.reduce((n, r) => n + (r.callBudget?.used ?? 0), 0),
      exhausted: true,
      code: 'SR_CALL_BUDGET_SPENT',
      ...(resumeAt ? { resumeAt } : {}),
    };
  }
  return merged;
}

function keepBest<T extends { job: string; key: string; outcome: keyof typeof rank }>(
  into: Map<string, T>,
  item: T,
): void {
  const id = `${item.job}/${item.key}`;
  const had = into.get(id);
  if (!had || rank[item.outcome] >= rank[had.outcome]) into.set(id, item);
}
