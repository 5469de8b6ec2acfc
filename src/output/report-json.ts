import path from 'node:path';
import type { RunSummary, SummaryTotals } from '../runner/run-summary.js';
import { totalsOf } from '../runner/run-summary.js';
import type { RateLimitInfo } from '../client/rate-limit.js';
import type { AccountResult, EnvelopeResult, RunTarget } from '../runner/run-summary.js';
import type { CallBudgetReport } from '../runner/call-budget.js';

/** report.json, as schemas/report.schema.json describes it. */
export interface RunReport {
  schemaVersion: 1;
  runId: string;
  /** Present in merged reports: the runIds combined. */
  mergedFrom?: string[];
  target: RunTarget;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  interrupted: boolean;
  concurrency: number;
  totals: SummaryTotals;
  api: {
    calls: number;
    retries: number;
    failedCalls: number;
    byOperation: Record<string, number>;
    rateLimit?: RateLimitInfo;
  };
  /** The hourly call budget; `exhausted` with `resumeAt` when the run stopped starting work for lack of calls. */
  callBudget?: CallBudgetReport;
  envelopes: EnvelopeResult[];
  accounts: AccountResult[];
}

/**
 * The report of a run: the summary's fields in the schema's shape (the
 * target's URL without user info). With `baseDir`, job-file paths are shown
 * relative to it (as the user named them) when inside it.
 */
export function reportOf(summary: RunSummary, baseDir?: string): RunReport {
  const show = (file: string) => {
    if (baseDir === undefined) return file;
    const rel = path.relative(baseDir, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
  };
  const report: RunReport = {
    schemaVersion: 1,
    runId: summary.runId,
    target: { rootUrl: withoutUserInfo(summary.target.rootUrl), sandbox: summary.target.sandbox },
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
    durationMs: Math.max(0, Math.round(summary.durationMs)),
    interrupted: summary.interrupted,
    concurrency: summary.concurrency,
    totals: totalsOf(summary),
    api: {
      calls: summary.api.calls,
      retries: summary.api.retries,
      failedCalls: summary.api.failedCalls,
      byOperation: summary.api.byOperation,
      ...(summary.api.rateLimit ? { rateLimit: summary.api.rateLimit } : {}),
    },
    ...(summary.callBudget ? { callBudget: summary.callBudget } : {}),
    envelopes: summary.envelopes.map((e) => ({ ...e, source: { ...e.source, file: show(e.source.file) } })),
    accounts: summary.accounts.map((a) => ({ ...a, source: { ...a.source, file: show(a.source.file) } })),
  };
  return report;
}

/** report.json's text. */
export function reportJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * report.json as chunks, one per envelope and account: the same text as
 * {@link reportJson}, without building a string of the whole report (at
 * 10,000 envelopes that string and its bytes cost ~40 MB at the end of a run).
 */
export function* reportJsonChunks(report: RunReport): Generator<string> {
  const { envelopes, accounts, ...head } = report;
  const headText = JSON.stringify(head, null, 2);
  yield headText.slice(0, headText.lastIndexOf('\n}'));
  for (const [name, items] of [
    ['envelopes', envelopes],
    ['accounts', accounts],
  ] as const) {
    if (items.length === 0) {
      yield `,\n  "${name}": []`;
      continue;
    }
    yield `,\n  "${name}": [`;
    let first = true;
    for (const item of items) {
      yield `${first ? '' : ','}\n    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}`;
      first = false;
    }
    yield '\n  ]';
  }
  yield '\n}\n';
}

function withoutUserInfo(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
