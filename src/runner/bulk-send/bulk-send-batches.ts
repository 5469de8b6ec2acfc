import type { AccountClient } from '../../client/esignature-client.js';
import { mayHaveActed } from '../../client/client-errors.js';
import type { BulkSendBatchStatus } from '../../client/wire-types.js';
import type { BulkProgress } from '../../state/journal-progress.js';
import type { Journal } from '../../state/journal.js';
import type { ResolvedEnvelope } from '../../jobs/model.js';
import { bulkCopyOf, bulkModelDefinitionOf } from './bulk-send-list.js';

/** DocuSign's limit of copies in one bulk send list (accountSettingsInformation.bulkSendMaxCopiesInBatch). */
export const maxCopiesPerList = 1000;

/** What the Bulk Send steps need of the run. */
export interface BulkSendContext {
  account: AccountClient;
  journal: Journal;
  /** Waits between two looks at a batch (the run's timing: tests give the sandbox's clock). */
  delay: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Names this run's batches (`signrun/<job>/<runId>/<n>`). */
  runId: string;
  /** Copies per list, at most 1,000 (DocuSign's limit). */
  listSize: number;
  /**
   * First wait before looking at a batch again, ms; it doubles up to
   * `maxPollMs`. Default 5 ms per copy of the batch, within 0.5 to 10 s:
   * every look is a call of the hourly budget, and a batch takes time in
   * proportion to its copies.
   */
  firstPollMs?: number;
  /** Longest wait between two looks, ms. Default 10,000. */
  maxPollMs?: number;
}

/** What became of one batch once nothing of it is queued. */
export interface FollowedBatch {
  name: string;
  batchId?: string;
  sent: number;
  failed: number;
  /** The service's messages for copies it could not make (bulkSendErrorStatus.errorMessage). */
  errors: string[];
}

const count = (value: string | undefined): number => Number(value ?? '0') || 0;

/** Journals that a batch is done (no copy left queued), so no later run follows it again. */
async function recordFollowed(ctx: BulkSendContext, result: FollowedBatch): Promise<FollowedBatch> {
  await ctx.journal.append({
    kind: 'bulk',
    id: result.name,
    step: 'followed',
    sent: result.sent,
    failed: result.failed,
  });
  return result;
}

/**
 * Looks at a batch until no copy of it is queued (DocuSign makes the copies
 * after the send has answered), waiting longer each time. Only then does
 * the service's listing hold every envelope the batch made.
 */
export async function followBatch(
  ctx: BulkSendContext,
  name: string,
  batchId: string,
  size: number,
): Promise<FollowedBatch> {
  let wait = ctx.firstPollMs ?? Math.min(10_000, Math.max(500, size * 5));
  for (;;) {
    const status: BulkSendBatchStatus = await ctx.account.getBulkSendBatch(batchId, { tag: 'bulk-send' });
    if (count(status.queued) === 0)
      return {
        name,
        batchId,
        sent: count(status.sent),
        failed: count(status.failed),
        errors: (status.bulkErrors ?? []).flatMap((e) => (e.errorMessage ? [e.errorMessage] : [])),
      };
    await ctx.delay(wait, ctx.signal);
    wait = Math.min(wait * 2, ctx.maxPollMs ?? 10_000);
  }
}

/** The id of this account's batch of that name, from the service's list of batches; undefined when none has it. */
async function batchNamed(ctx: BulkSendContext, name: string): Promise<string | undefined> {
  const batches = await ctx.account.listBulkSendBatches({ status: 'all', count: 1000 }, { tag: 'bulk-send' });
  return (batches.bulkBatchSummaries ?? []).find((b) => b.batchName === name)?.batchId;
}

/**
 * Follows the batches an earlier run sent and did not see finished (it was
 * killed, or stopped): those the journal knows by id, and those whose send
 * was journalled but whose answer was not — found by name, or, when no
 * batch has the name, never made. Must run before anything is decided: while
 * a batch is queued, the service's listing does not show all its envelopes
 * yet, and rows it is about to make would look missing. Then deletes those
 * batches' models (drafts, never sent). Journals `followed` for each.
 */
export async function followUnfinished(
  ctx: BulkSendContext,
  unfinished: readonly BulkProgress[],
): Promise<FollowedBatch[]> {
  const followed: FollowedBatch[] = [];
  for (const batch of unfinished) {
    const batchId = batch.batchId ?? (await batchNamed(ctx, batch.name));
    const result = batchId
      ? await followBatch(ctx, batch.name, batchId, batch.size)
      : { name: batch.name, sent: 0, failed: 0, errors: [] };
    followed.push(await recordFollowed(ctx, result));
  }
  const models = [...new Set(unfinished.map((b) => b.modelId))];
  if (models.length > 0) await deleteModels(ctx, models);
  return followed;
}

/**
 * Sends rows of one group through Bulk Send: one model (a draft of the first
 * row), one list per `listSize` rows, each sent as one batch, then every
 * batch followed until done and the model deleted. Each send is journalled
 * (`send-intent`, fsync'ed) before it is asked for and its batch id after:
 * a run killed in between finds the batch by name and follows it before
 * deciding anything (followUnfinished). A send whose answer was lost is
 * looked up by name too, never sent again.
 */
export async function sendInBulk(
  ctx: BulkSendContext,
  job: string,
  rows: readonly ResolvedEnvelope[],
  firstBatch: number,
): Promise<FollowedBatch[]> {
  const first = rows[0];
  if (!first) return [];
  const model = await ctx.account.createEnvelope(await bulkModelDefinitionOf(first), { tag: 'bulk-send' });
  const sent: Array<{ name: string; batchId: string; size: number }> = [];
  let done = false;
  try {
    for (let at = 0, n = firstBatch; at < rows.length; at += ctx.listSize, n++) {
      const name = `signrun/${job}/${ctx.runId}/${n}`;
      const listId = await ctx.account.createBulkSendList(
        { name, bulkCopies: rows.slice(at, at + ctx.listSize).map(bulkCopyOf) },
        { tag: 'bulk-send' },
      );
      const size = Math.min(ctx.listSize, rows.length - at);
      await ctx.journal.append({
        kind: 'bulk',
        id: name,
        step: 'send-intent',
        job,
        listId,
        modelId: model.envelopeId,
        size,
      });
      let batchId: string | undefined;
      try {
        batchId = (
          await ctx.account.sendBulkSendList(
            listId,
            { envelopeOrTemplateId: model.envelopeId, batchName: name },
            { tag: 'bulk-send' },
          )
        ).batchId;
      } catch (error) {
        // The answer may be lost after the service made the batch: it is looked for, never sent again.
        if (!mayHaveActed(error)) throw error;
        batchId = await batchNamed(ctx, name);
        if (!batchId) throw error;
      }
      await ctx.journal.append({ kind: 'bulk', id: name, step: 'batch', batchId: batchId! });
      sent.push({ name, batchId: batchId!, size });
    }
    const followed: FollowedBatch[] = [];
    for (const batch of sent)
      followed.push(await recordFollowed(ctx, await followBatch(ctx, batch.name, batch.batchId, batch.size)));
    done = true;
    return followed;
  } finally {
    // Once its batches are done (or none was made), the model has done its work. A batch that may
    // still be queued (the run stopped or failed while following it) keeps its model: copies are
    // made from it; the next run follows the batch (journalled), then deletes the model.
    if (done || sent.length === 0) await deleteModels(ctx, [model.envelopeId]).catch(() => undefined);
  }
}

/** Moves models (drafts) to the recycle bin, as DocuSign deletes drafts. */
async function deleteModels(ctx: BulkSendContext, modelIds: string[]): Promise<void> {
  await ctx.account.deleteDrafts(modelIds, { tag: 'bulk-send' });
}
