import path from 'node:path';
import { shownUrl } from '../secret.js';
import type { RunSummary, SummaryCommand, SummaryTotals } from '../runner/run-summary.js';
import type { RateLimitInfo } from '../client/rate-limit.js';
import type {
  AccountResult,
  EnvelopeResult,
  FormDataSources,
  RunTarget,
  TemplateResult,
} from '../runner/run-summary.js';
import type { CallBudgetReport } from '../runner/call-budget.js';
import type { JobKindField } from '../runner/resources/job-resource-kind.js';
import { jobResourceKinds } from '../runner/resources/job-resource-kinds.js';

/** report.json, as schemas/report.schema.json describes it. */
export interface RunReport {
  schemaVersion: 1;
  runId: string;
  /** The command that wrote it (`run`, `sync`); absent in reports written before it was recorded, and in merged ones. */
  command?: SummaryCommand;
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
  /** sync: where the form data of the envelopes it collected came from (what cost a call each). */
  formData?: FormDataSources;
  /** Templates kept as code (absent: the jobs have none). */
  templates?: TemplateResult[];
  envelopes: EnvelopeResult[];
  accounts: AccountResult[];
}

/**
 * The results of what the job files keep in the account run against, each
 * kind of the job catalogue (job-resource-kinds.ts) in its own field
 * (`templates`), absent when the jobs keep none; job-file paths shown.
 */
function jobResultsOf(summary: RunSummary, show: (file: string) => string): Partial<Pick<ReportHead, JobKindField>> {
  const fields: Partial<Pick<ReportHead, JobKindField>> = {};
  for (const kind of jobResourceKinds) {
    const results = summary[kind.field];
    if (results)
      fields[kind.field] = results.map((r) => ({ ...r, source: { ...r.source, file: show(r.source.file) } }));
  }
  return fields;
}

/** report.json's fields before its item lists, in the schema's order. */
export type ReportHead = Omit<RunReport, 'envelopes' | 'accounts'>;

/**
 * A report to write: its head and accounts in hand, its envelopes read as a
 * stream (from a run's results spool, or from a merged report's array), so
 * that writing the reports of 100,000 envelopes needs no more memory than
 * of 1,000. Every reporter reads it: report.json, report.md, junit.xml and
 * the console summary.
 */
export interface ReportSource {
  head: ReportHead;
  /** Accounts in report order (few: in memory). */
  accounts: AccountResult[];
  /** Envelopes in report order; each call reads them afresh (reporters may read more than once). */
  envelopes: () => AsyncIterable<EnvelopeResult>;
}

/**
 * The report of a run: the summary's fields in the schema's shape (the
 * target's URL without user info or query: shownUrl). With `baseDir`, job-file paths are shown
 * relative to it (as the user named them) when inside it. Envelopes are read
 * from the summary as the report is written.
 */
export function reportOf(summary: RunSummary, baseDir?: string): ReportSource {
  const show = (file: string) => {
    if (baseDir === undefined) return file;
    const rel = path.relative(baseDir, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
  };
  const head: ReportHead = {
    schemaVersion: 1,
    runId: summary.runId,
    ...(summary.command ? { command: summary.command } : {}),
    target: { rootUrl: shownUrl(summary.target.rootUrl), sandbox: summary.target.sandbox },
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
    durationMs: Math.max(0, Math.round(summary.durationMs)),
    interrupted: summary.interrupted,
    concurrency: summary.concurrency,
    totals: summary.totals,
    api: {
      calls: summary.api.calls,
      retries: summary.api.retries,
      failedCalls: summary.api.failedCalls,
      byOperation: summary.api.byOperation,
      ...(summary.api.rateLimit ? { rateLimit: summary.api.rateLimit } : {}),
    },
    ...(summary.callBudget ? { callBudget: summary.callBudget } : {}),
    ...(summary.formData ? { formData: summary.formData } : {}),
    ...jobResultsOf(summary, show),
  };
  return {
    head,
    accounts: summary.accounts.map((a) => ({ ...a, source: { ...a.source, file: show(a.source.file) } })),
    envelopes: async function* () {
      for await (const e of summary.envelopes())
        yield {
          ...e,
          source: { ...e.source, file: show(e.source.file) },
          ...(e.rowSource ? { rowSource: { ...e.rowSource, file: show(e.rowSource.file) } } : {}),
        };
    },
  };
}

/** A report in hand (a merged one, read from report.json files) as a {@link ReportSource}. */
export function reportSourceOf(report: RunReport): ReportSource {
  const { envelopes, accounts, ...head } = report;
  return {
    head,
    accounts,
    envelopes: async function* () {
      yield* envelopes;
    },
  };
}

/** report.json's text. */
export function reportJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * report.json as chunks, one per envelope and account: the same text as
 * {@link reportJson}, without building a string of the whole report nor
 * holding its envelopes (at 10,000 envelopes that string and its bytes
 * cost ~40 MB at the end of a run).
 */
export async function* reportJsonChunks(source: ReportSource): AsyncGenerator<string> {
  const headText = JSON.stringify(source.head, null, 2);
  yield headText.slice(0, headText.lastIndexOf('\n}'));
  for (const [name, items] of [
    ['envelopes', source.envelopes()],
    ['accounts', source.accounts],
  ] as const) {
    let first = true;
    for await (const item of items) {
      yield `${first ? `,\n  "${name}": [` : ','}\n    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}`;
      first = false;
    }
    yield first ? `,\n  "${name}": []` : '\n  ]';
  }
  yield '\n}\n';
}
