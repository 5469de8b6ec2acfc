import type { CallOptions } from '../call-options.js';
import type { BulkSendBatchStatus, BulkSendBatchSummaries, BulkSendResponse, BulkSendingList } from '../wire-types.js';
import { answerJson, requiredString, type AccountScope } from './account-scope.js';
import { accountEndpointUrl as urlOf } from './endpoints.js';

// Bulk Send exists in REST v2.1 only (the Swagger's BulkSendV2*): the table
// says so, and its calls go there whatever the root's version.

/**
 * POST …/bulk_send_lists (BulkSendV2CRUD_PostBulkSendList): a list of up
 * to 1,000 copies. Safe to repeat: a second list sends nothing.
 */
export async function createBulkSendList(
  account: AccountScope,
  list: BulkSendingList,
  options: CallOptions = {},
): Promise<string> {
  const request = {
    method: 'POST' as const,
    url: urlOf(account.baseUrl, 'createBulkSendList', {}),
    operation: 'createBulkSendList',
  };
  const created = await answerJson<Record<string, unknown>>(
    account.client,
    { ...request, body: list, idempotent: true },
    options,
  );
  return requiredString(created, 'listId', request);
}

/**
 * POST …/bulk_send_lists/{listId}/send (BulkSendV2Send_PostBulkSendRequest):
 * one batch, one envelope per copy. Not idempotent: a repeat is a second
 * batch, so the retry layer never repeats it after a failure the service
 * may have acted on; the caller looks the batch up by its name instead.
 */
export async function sendBulkSendList(
  account: AccountScope,
  listId: string,
  sendRequest: { envelopeOrTemplateId: string; batchName: string },
  options: CallOptions = {},
): Promise<BulkSendResponse> {
  const request = {
    method: 'POST' as const,
    url: urlOf(account.baseUrl, 'sendBulkSendList', { bulkSendListId: listId }),
    operation: 'sendBulkSendList',
  };
  const answer = await answerJson<BulkSendResponse>(account.client, { ...request, body: sendRequest }, options);
  requiredString(answer, 'batchId', request);
  return answer;
}

/** GET …/bulk_send_batch/{batchId} (BulkSendV2Batch_GetBulkSendBatchStatus): queued, sent and failed counts. */
export async function getBulkSendBatch(
  account: AccountScope,
  batchId: string,
  options: CallOptions = {},
): Promise<BulkSendBatchStatus> {
  const url = urlOf(account.baseUrl, 'getBulkSendBatch', { bulkSendBatchId: batchId });
  return answerJson<BulkSendBatchStatus>(
    account.client,
    { method: 'GET', url, operation: 'getBulkSendBatch' },
    options,
  );
}

/** GET …/bulk_send_batch (BulkSendV2Batch_GetBulkSendBatches), optionally only those with copies queued. */
export async function listBulkSendBatches(
  account: AccountScope,
  query: { status?: 'all' | 'queued' | 'sent' | 'failed'; count?: number } = {},
  options: CallOptions = {},
): Promise<BulkSendBatchSummaries> {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.count !== undefined) params.set('count', String(query.count));
  // The query always follows `?`, even when empty, as the client always sent it.
  const url = `${urlOf(account.baseUrl, 'listBulkSendBatches', {})}?${params.toString()}`;
  return answerJson<BulkSendBatchSummaries>(
    account.client,
    { method: 'GET', url, operation: 'listBulkSendBatches' },
    options,
  );
}
