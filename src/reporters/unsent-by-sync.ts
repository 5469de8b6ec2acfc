import type { ReportHead } from './report-json.js';

/**
 * Whether a report's items not started are envelopes a sync found never
 * sent (no envelope id in the journal nor in envelope.json): a sync asks the
 * service only about sent envelopes, so those are left as they are. Not an
 * interruption, and running the sync again changes nothing: a run sends them.
 */
export function syncOfUnsent(report: Pick<ReportHead, 'command' | 'interrupted'>): boolean {
  return report.command === 'sync' && !report.interrupted;
}

/** What the reports say of them, after their number. */
export const unsentBySync =
  'envelope(s) not sent yet: a sync has nothing to ask the service about them; `npx signrun run <paths>` sends them.';
