import type { ResolvedEnvelope } from '../../jobs/model.js';
import type { JournalProgress } from '../../state/journal-progress.js';
import { bulkSendGroups, goesInBulk } from './bulk-send-fit.js';
import { followUnfinished, sendInBulk, type BulkSendContext } from './bulk-send-batches.js';
import { decideEnvelope, type DecisionSources } from '../decide.js';
import type { EnvelopePlan, Plan } from '../plan-types.js';
import type { RunEvent } from '../run-events.js';
import type { ServiceLedger } from '../envelopes/service-ledger.js';
import { identityOf } from '../identity.js';

/** What the Bulk Send phase of a run needs. */
export interface BulkSendPhaseInputs extends BulkSendContext {
  /** `run --bulk-send`: every forEach envelope; otherwise only those with `bulkSend: true`. */
  all: boolean;
  /** The service's listing the plan was made from; refreshed after batches, so the plan sees their envelopes. */
  ledger: ServiceLedger;
  /** What the journal said when the run started (batches an earlier run left unfinished). */
  progress?: JournalProgress;
  /** How the plan decided: the same sources decide again once the batches are done. */
  sources: DecisionSources;
  emit: (event: RunEvent) => void;
  /** Whether an envelope can be sent at all this run (its template is in the account). */
  sendable: (envelope: ResolvedEnvelope) => boolean;
}

type BulkItem = EnvelopePlan & { envelope: ResolvedEnvelope };

/**
 * Bulk Send inside a run (docs/exactly-once.md, "Bulk Send"), between the
 * plan and the execution of the envelopes:
 *
 * 1. batches an earlier run sent and did not see done are followed until
 *    nothing of them is queued, then the listing is asked again and the
 *    Bulk Send envelopes decided again: their envelopes are now found;
 * 2. the envelopes still to create (and to send) go in lists of up to
 *    1,000 copies, one batch each, followed until done;
 * 3. the listing is asked again and those envelopes decided again: each copy
 *    is found by its identity and taken as this run's (adopt, `bulkSent`),
 *    so the execution writes its outputs and journal records as for any
 *    envelope, with no call to create or send it. A row no batch made (a
 *    copy the service failed) is still `create`: sent on its own, once.
 *
 * A refused Bulk Send (the service said no) is a warning, not a failure: its
 * rows are sent one by one by the execution, exactly once as ever.
 */
export async function runBulkSendPhase(plan: Plan, inputs: BulkSendPhaseInputs): Promise<void> {
  const items = plan.items.filter(
    (item): item is BulkItem =>
      item.kind === 'envelope' && item.envelope !== undefined && goesInBulk(item.envelope, inputs.all),
  );
  if (items.length === 0) return;
  const jobs = new Set(items.map((i) => i.job));
  const decideAgain = async () => {
    // Alone by design: no draft asks with it, so it does not wait for callers to share the listing.
    for (const job of jobs) await inputs.ledger.refresh(job, { gather: false });
    for (const item of items) {
      const again = decideEnvelope(item.envelope, inputs.sources);
      item.decision = again.decision;
      item.steps = again.steps;
      item.apiCalls = again.apiCalls;
    }
  };

  const unfinished = [...(inputs.progress?.bulk.values() ?? [])].filter((b) => !b.followed && jobs.has(b.job));
  if (unfinished.length > 0) {
    await followUnfinished(inputs, unfinished);
    await decideAgain();
  }

  // New envelopes to send: created by no run (the journal's intent alone is no envelope, decide.ts).
  const toSend = items.filter(
    (item) => item.steps.includes('draft') && item.envelope.status === 'sent' && inputs.sendable(item.envelope),
  );
  if (toSend.length === 0) return;
  const sentBy = new Set<string>();
  let batch = 1;
  for (const group of bulkSendGroups(
    toSend.map((i) => i.envelope),
    inputs.all,
  )) {
    if (inputs.signal?.aborted) break;
    try {
      const followed = await sendInBulk(inputs, group.job, group.rows, batch);
      batch += followed.length;
      for (const row of group.rows) sentBy.add(identityOf(row));
    } catch (error) {
      // Stopped (SIGTERM, Ctrl-C): the run starts nothing more; a batch sent is followed by the next run.
      if (inputs.signal?.aborted) return;
      inputs.emit({
        type: 'warning',
        kind: 'bulk-send-refused',
        message: `Bulk Send of the forEach envelope of job ${group.job} (${group.source.file}:${group.source.line}) failed: ${(error as Error).message}; its ${group.rows.length} envelope(s) are sent one by one instead`,
      });
    }
  }
  await decideAgain();
  for (const item of items)
    if (item.decision.action === 'adopt' && !item.decision.draft && sentBy.has(item.identity))
      item.decision.bulkSent = true;
}
