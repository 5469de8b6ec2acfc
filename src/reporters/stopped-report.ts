import { randomUUID } from 'node:crypto';
import type { SourcePosition } from '../jobs/model.js';
import { totalsOf, type AccountResult, type EnvelopeResult, type ItemError } from '../runner/run-summary.js';
import type { ReportSource } from './report-json.js';

/** An item a run was to do, as the report names it. */
export interface PlannedItem {
  kind: 'envelope' | 'account';
  job: string;
  key: string;
  source: SourcePosition;
  row?: number;
  rowSource?: SourcePosition;
  state?: 'present' | 'absent';
}

/**
 * The report of a run that stopped before sending anything (login refused,
 * credentials missing, a template's roles wrong): every item failed with
 * the reason, so that report.json, report.md, junit.xml and report.html
 * say why and CI has something to show.
 */
export function stoppedReport(input: {
  target: { rootUrl: string; sandbox: boolean };
  startedAt: Date;
  concurrency: number;
  items: PlannedItem[];
  error: ItemError;
  now?: Date;
}): ReportSource {
  const endedAt = input.now ?? new Date();
  const error: ItemError = {
    ...input.error,
    message: `not sent: the run stopped before sending anything: ${input.error.message}`,
  };
  const envelopes: EnvelopeResult[] = [];
  const accounts: AccountResult[] = [];
  for (const item of input.items) {
    const base = { job: item.job, key: item.key, source: item.source, files: [], apiCalls: 0, retries: 0, error };
    if (item.kind === 'envelope')
      envelopes.push({
        ...base,
        ...(item.row !== undefined ? { row: item.row } : {}),
        ...(item.rowSource !== undefined ? { rowSource: item.rowSource } : {}),
        outcome: 'failed',
        recipients: [],
      });
    else accounts.push({ ...base, state: item.state ?? 'present', outcome: 'failed' });
  }
  return {
    head: {
      schemaVersion: 1,
      runId: randomUUID(),
      target: input.target,
      startedAt: input.startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      durationMs: Math.max(0, endedAt.getTime() - input.startedAt.getTime()),
      interrupted: false,
      concurrency: input.concurrency,
      totals: totalsOf({ envelopes, accounts }),
      api: { calls: 0, retries: 0, failedCalls: 0, byOperation: {} },
    },
    accounts,
    envelopes: async function* () {
      yield* envelopes;
    },
  };
}
