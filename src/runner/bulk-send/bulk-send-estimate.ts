import type { ResolvedEnvelope } from '../../jobs/model.js';
import { bulkSendGroups, goesInBulk } from './bulk-send-fit.js';
import type { Plan } from '../plan-types.js';

/** DocuSign's most copies in one bulk send list. */
export const bulkListRows = 1_000;

/**
 * The calls Bulk Send makes for one group of rows (one model): the model
 * draft and its deletion, and per list of up to 1,000 rows the list, its
 * send and about two looks at its batch (the first after 5 ms a copy, then
 * doubling: bulk-send-batches.ts), then a page of the listing that finds
 * the copies. What bench/run/bulk-send-bench.mjs counts at 1,000 rows: 6 of
 * Bulk Send, 2 pages of listing.
 */
export function bulkSendCalls(rows: number, listRows = bulkListRows): number {
  if (rows === 0) return 0;
  const lists = Math.ceil(rows / listRows);
  return 2 + lists * 4 + Math.ceil(rows / listRows);
}

/**
 * The plan as `run --bulk-send` (or `bulkSend: true` in the file) would
 * execute it: each envelope to create and send that goes through Bulk
 * Send costs none of its own draft, confirm and send calls — the batch
 * makes it — and each group costs {@link bulkSendCalls}. What the run then
 * does per envelope (signing addresses at send, downloads) stays counted.
 * The plan's decisions are unchanged: the run's Bulk Send phase makes the
 * same ones from the same listing.
 */
export function withBulkSend(plan: Plan, envelopes: Iterable<ResolvedEnvelope>, all: boolean): Plan {
  const byIdentity = new Map<string, ResolvedEnvelope>();
  for (const e of envelopes) byIdentity.set(`${e.job}/${e.key}`, e);
  const inBulk: ResolvedEnvelope[] = [];
  let confirmed = 0;
  const items = plan.items.map((item) => {
    if (item.kind !== 'envelope' || !item.steps.includes('draft') || !item.steps.includes('send')) return item;
    // Word letters are generated on each envelope's own draft (PUT …/docGenFormFields): not a Bulk Send copy.
    if (item.steps.includes('docgen')) return item;
    const envelope = byIdentity.get(item.identity);
    if (!envelope || envelope.status !== 'sent') return item;
    if (!goesInBulk(envelope, all)) return item;
    inBulk.push(envelope);
    if (item.steps.includes('confirm')) confirmed += 1;
    const bulkSteps = new Set(['draft', 'confirm', 'send']);
    return {
      ...item,
      bulkSend: true as const,
      steps: item.steps.filter((s) => !bulkSteps.has(s)),
      apiCalls: item.apiCalls - 2,
    };
  });
  if (inBulk.length === 0) return plan;
  const bulkCalls = bulkSendGroups(inBulk, all).reduce((n, g) => n + bulkSendCalls(g.rows.length), 0);
  // Their drafts need no confirmation listing: the plan counted one per 8 drafts.
  const listingCalls = Math.max(0, plan.listingCalls - Math.floor(confirmed / 8));
  return {
    ...plan,
    items,
    listingCalls,
    bulkSendCalls: bulkCalls,
    totalApiCalls: plan.totalApiCalls - 2 * inBulk.length - (plan.listingCalls - listingCalls) + bulkCalls,
  };
}
