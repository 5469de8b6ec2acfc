import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { isoTime } from '../../platform/clock.js';
import { copyProblems } from './bulk-copy.js';
import type { BulkCopy, BulkSendBatchRecord, BulkSendListRecord } from './repository.js';
import { envelopeJson } from '../envelopes/wire/envelope-json.js';
import { maxBulkCopies, parseBulkSendList } from './bulk-send-list.js';
import { lenientObject, lenientString } from '../../platform/http/lenient.js';
import { camelCaseKeys } from '../envelopes/wire/camel-case-keys.js';
import { principalOf, type AccountParams } from '../request-helpers.js';
import { accountParams, bulkSendBatchParams, bulkSendBatchesQuery, bulkSendListParams } from '../route-schemas.js';

interface ListParams extends AccountParams {
  bulkSendListId: string;
}
interface BatchParams extends AccountParams {
  bulkSendBatchId: string;
}
interface BatchesQuery {
  batch_ids?: string;
  status?: string;
  start_position?: string;
  count?: string;
  include?: string;
}

/**
 * DocuSign's Swagger gives no error codes for Bulk Send; these are the
 * sandbox's, in DocuSign's style, answered with 400 as DocuSign answers
 * every refusal of a request.
 */
const bulkErrors = {
  listNotFound: () =>
    new ApiError(
      400,
      'BULK_SEND_LIST_DOES_NOT_EXIST',
      'The bulk send list specified does not exist or you have no rights to it.',
    ),
  batchNotFound: () =>
    new ApiError(
      400,
      'BULK_SEND_BATCH_DOES_NOT_EXIST',
      'The bulk send batch specified does not exist or you have no rights to it.',
    ),
  modelNotFound: () =>
    new ApiError(
      400,
      'BULK_SEND_ENVELOPE_OR_TEMPLATE_NOT_FOUND',
      "'envelopeOrTemplateId' names no draft envelope or template of the account.",
    ),
  notADraft: (status: string) =>
    new ApiError(
      400,
      'BULK_SEND_ENVELOPE_NOT_IN_SENDABLE_STATE',
      `Bulk Send copies a draft envelope; this one is ${status}.`,
    ),
  doesNotFit: (problems: string[]) =>
    new ApiError(400, 'BULK_SEND_ENVELOPE_LIST_CONTAINS_INVALID_DATA', problems.slice(0, 10).join(' ')),
};

const listJson = (list: BulkSendListRecord) => ({
  listId: list.id,
  name: list.name,
  bulkCopies: list.copies.map(copyJson),
});

/** A stored copy as the wire has it (`#/definitions/bulkSendingCopy`); access codes are never answered. */
function copyJson(copy: BulkCopy) {
  return {
    ...(copy.emailSubject !== undefined ? { emailSubject: copy.emailSubject } : {}),
    ...(copy.emailBlurb !== undefined ? { emailBlurb: copy.emailBlurb } : {}),
    // An access code is never answered (only its hash is kept): DocuSign shows none either.
    recipients: copy.recipients.map(({ accessCodeHash: _hash, ...r }) => r),
    customFields: copy.customFields,
  };
}

/** The model a send names: a draft envelope or a template of the account, and what a copy may fill of it. */
function modelOf(request: FastifyRequest, accountId: string, id: string) {
  const { sandbox } = request.server;
  const envelope = sandbox.envelopes.get(accountId, id.toLowerCase());
  if (envelope) {
    return {
      kind: 'envelope' as const,
      id: envelope.id,
      status: envelope.status,
      recipients: sandbox.envelopes.recipients(envelope.id),
      customFieldNames: sandbox.envelopes.customFields(envelope.id).map((f) => f.name),
    };
  }
  const template = sandbox.templates.get(accountId, id);
  if (template) {
    return {
      kind: 'template' as const,
      id: template.id,
      status: 'created',
      recipients: sandbox.templates
        .roles(template.id)
        .map((r) => ({ recipientId: r.recipientId, roleName: r.roleName })),
      customFieldNames: template.customFields.map((f) => f.name),
    };
  }
  return undefined;
}

/** Reads a send or test request (`#/definitions/bulkSendRequest`) and checks the model against the list. */
function checkedSend(request: FastifyRequest<{ Params: ListParams }>) {
  const { account } = principalOf(request);
  const { sandbox } = request.server;
  const list = sandbox.bulkSend.list(account.id, request.params.bulkSendListId.toLowerCase());
  if (!list) throw bulkErrors.listNotFound();
  const body = lenientObject(camelCaseKeys(request.body), 'bulkSendRequest') ?? {};
  const modelId = lenientString(body['envelopeOrTemplateId'], 'envelopeOrTemplateId');
  if (!modelId) throw apiErrors.invalidBody("'envelopeOrTemplateId' is required.");
  const model = modelOf(request, account.id, modelId);
  if (!model) throw bulkErrors.modelNotFound();
  const problems = [
    ...(model.status !== 'created' ? [`the envelope is ${model.status}, not a draft.`] : []),
    ...list.copies.flatMap((copy, i) => copyProblems(model, copy, i)),
  ];
  return { list, model, problems, batchName: lenientString(body['batchName'], 'batchName') };
}

function batchStatusJson(request: FastifyRequest, batch: BulkSendBatchRecord) {
  const counts = request.server.sandbox.bulkSend.counts(batch.id);
  return {
    batchId: batch.id,
    batchName: batch.name,
    batchSize: String(batch.size),
    bulkErrors: counts.errors.map((e) => ({
      created: isoTime(e.at),
      errorMessage: e.message,
      recipientEmails: e.emails,
    })),
    envelopeIdOrTemplateId: batch.modelId,
    envelopesUri: `/bulk_send_batch/${batch.id}/envelopes`,
    failed: String(counts.failed),
    mailingListId: batch.listId,
    ownerUserId: batch.senderUserId,
    queued: String(counts.queued),
    senderUserId: batch.senderUserId,
    sent: String(counts.sent),
    submittedDate: isoTime(batch.submittedAt),
  };
}

function batchOf(request: FastifyRequest<{ Params: BatchParams }>): BulkSendBatchRecord {
  const { account } = principalOf(request);
  const batch = request.server.sandbox.bulkSend.batch(account.id, request.params.bulkSendBatchId.toLowerCase());
  if (!batch) throw bulkErrors.batchNotFound();
  return batch;
}

function paging(query: BatchesQuery): { start: number; count: number } {
  const start = query.start_position ? Number(query.start_position) : 0;
  const count = Math.min(query.count ? Number(query.count) : 1000, 1000);
  if (count < 1) throw apiErrors.invalidParameter("'count' must be a whole number of 1 or more.");
  return { start, count };
}

/**
 * Bulk Send, v2 of DocuSign's bulk sending (the Swagger's BulkSendV2CRUD,
 * BulkSendV2Send, BulkSendV2Test and BulkSendV2Batch): lists of copies, a
 * send that makes a batch of one envelope per copy from a model (a draft
 * envelope or a template), and the batch followed as its copies are made in
 * the background (bulk-send/bulk-send-worker.ts).
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const bulkSendRoutes: FastifyPluginAsync = async (app) => {
  // POST …/bulk_send_lists (BulkSendV2CRUD_PostBulkSendList → 201 #/definitions/bulkSendingList).
  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/bulk_send_lists',
    { schema: accountParams },
    async (request, reply) => {
      const { account, user } = principalOf(request);
      const { sandbox } = request.server;
      const { name, copies } = await parseBulkSendList(request.body);
      const list: BulkSendListRecord = {
        id: randomUUID(),
        accountId: account.id,
        name,
        createdByUserId: user.id,
        createdAt: sandbox.clock.now(),
        copies,
      };
      sandbox.bulkSend.insertList(list);
      void reply.status(201);
      return listJson(list);
    },
  );

  // GET …/bulk_send_lists (BulkSendV2CRUD_GetBulkSendLists → #/definitions/bulkSendingListSummaries).
  app.get<{ Params: AccountParams }>(
    '/accounts/:accountId/bulk_send_lists',
    { schema: accountParams },
    async (request) => {
      const { account } = principalOf(request);
      return {
        bulkListSummaries: request.server.sandbox.bulkSend.lists(account.id).map((l) => ({
          bulkSendListId: l.id,
          createdByUser: l.createdByUserId,
          createdDate: isoTime(l.createdAt),
          name: l.name,
        })),
      };
    },
  );

  // GET …/bulk_send_lists/{bulkSendListId} (BulkSendV2CRUD_GetBulkSendList → #/definitions/bulkSendingList).
  app.get<{ Params: ListParams }>(
    '/accounts/:accountId/bulk_send_lists/:bulkSendListId',
    { schema: bulkSendListParams },
    async (request) => {
      const { account } = principalOf(request);
      const list = request.server.sandbox.bulkSend.list(account.id, request.params.bulkSendListId.toLowerCase());
      if (!list) throw bulkErrors.listNotFound();
      return listJson(list);
    },
  );

  // PUT …/bulk_send_lists/{bulkSendListId} (BulkSendV2CRUD_PutBulkSendList → #/definitions/bulkSendingList): replaces it.
  app.put<{ Params: ListParams }>(
    '/accounts/:accountId/bulk_send_lists/:bulkSendListId',
    { schema: bulkSendListParams },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const list = sandbox.bulkSend.list(account.id, request.params.bulkSendListId.toLowerCase());
      if (!list) throw bulkErrors.listNotFound();
      const { name, copies } = await parseBulkSendList(request.body);
      sandbox.bulkSend.updateList(account.id, list.id, name, copies);
      return listJson({ ...list, name, copies });
    },
  );

  // DELETE …/bulk_send_lists/{bulkSendListId} (BulkSendV2CRUD_DeleteBulkSendList → #/definitions/bulkSendingListSummaries):
  // answers the lists left. A batch already sent keeps its copies.
  app.delete<{ Params: ListParams }>(
    '/accounts/:accountId/bulk_send_lists/:bulkSendListId',
    { schema: bulkSendListParams },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      if (!sandbox.bulkSend.deleteList(account.id, request.params.bulkSendListId.toLowerCase()))
        throw bulkErrors.listNotFound();
      return {
        bulkListSummaries: sandbox.bulkSend.lists(account.id).map((l) => ({
          bulkSendListId: l.id,
          createdByUser: l.createdByUserId,
          createdDate: isoTime(l.createdAt),
          name: l.name,
        })),
      };
    },
  );

  // POST …/bulk_send_lists/{bulkSendListId}/test (BulkSendV2Test_PostBulkSendTestRequest → 201 #/definitions/bulkSendTestResponse).
  app.post<{ Params: ListParams }>(
    '/accounts/:accountId/bulk_send_lists/:bulkSendListId/test',
    { schema: bulkSendListParams },
    async (request, reply) => {
      const { problems } = checkedSend(request);
      void reply.status(201);
      return {
        canBeSent: problems.length === 0,
        validationErrors: problems.map(() => 'BULK_SEND_ENVELOPE_LIST_CONTAINS_INVALID_DATA'),
        validationErrorDetails: problems,
      };
    },
  );

  // POST …/bulk_send_lists/{bulkSendListId}/send (BulkSendV2Send_PostBulkSendRequest → 201 #/definitions/bulkSendResponse):
  // the batch and its copies are stored, queued, in one transaction before the answer; the copies are made after it.
  app.post<{ Params: ListParams }>(
    '/accounts/:accountId/bulk_send_lists/:bulkSendListId/send',
    { schema: bulkSendListParams },
    async (request, reply) => {
      const { user, account } = principalOf(request);
      const { sandbox } = request.server;
      const { list, model, problems, batchName } = checkedSend(request);
      if (model.kind === 'envelope' && model.status !== 'created') throw bulkErrors.notADraft(model.status);
      if (problems.length > 0) throw bulkErrors.doesNotFit(problems);
      const batch: BulkSendBatchRecord = {
        id: randomUUID(),
        accountId: account.id,
        name: batchName ?? list.name,
        listId: list.id,
        modelId: model.id,
        modelKind: model.kind,
        senderUserId: user.id,
        submittedAt: sandbox.clock.now(),
        size: list.copies.length,
      };
      sandbox.bulkSend.insertBatch(batch, list.copies);
      sandbox.bulkSendWorker.kick();
      void reply.status(201);
      return {
        batchId: batch.id,
        batchName: batch.name,
        batchSize: String(batch.size),
        envelopeOrTemplateId: model.id,
        errorDetails: [],
        errors: [],
        queueLimit: String(maxBulkCopies * 10),
        totalQueued: String(sandbox.bulkSend.queuedInAccount(account.id)),
      };
    },
  );

  // GET …/bulk_send_batch (BulkSendV2Batch_GetBulkSendBatches → #/definitions/bulkSendBatchSummaries).
  app.get<{ Params: AccountParams; Querystring: BatchesQuery }>(
    '/accounts/:accountId/bulk_send_batch',
    { schema: { ...accountParams, ...bulkSendBatchesQuery } },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const { start, count } = paging(request.query);
      const ids = request.query.batch_ids
        ?.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
      const status = (request.query.status ?? 'all').toLowerCase();
      if (!['all', 'queued', 'sent', 'failed'].includes(status))
        throw apiErrors.invalidParameter("'status' must be all, queued, sent or failed.");
      const rows = sandbox.bulkSend
        .batches(account.id)
        .filter((b) => !ids?.length || ids.includes(b.id))
        .map((b) => ({ batch: b, counts: sandbox.bulkSend.counts(b.id) }))
        .filter(({ counts }) => status === 'all' || counts[status as 'queued' | 'sent' | 'failed'] > 0);
      const page = rows.slice(start, start + count);
      return {
        batchSizeLimit: String(maxBulkCopies),
        bulkBatchSummaries: page.map(({ batch, counts }) => ({
          batchId: batch.id,
          batchName: batch.name,
          batchSize: String(batch.size),
          batchUri: `/bulk_send_batch/${batch.id}`,
          failed: String(counts.failed),
          queued: String(counts.queued),
          sent: String(counts.sent),
          submittedDate: isoTime(batch.submittedAt),
        })),
        endPosition: String(Math.max(start + page.length - 1, 0)),
        queueLimit: String(maxBulkCopies * 10),
        resultSetSize: String(page.length),
        startPosition: String(start),
        totalQueued: String(sandbox.bulkSend.queuedInAccount(account.id)),
        totalSetSize: String(rows.length),
      };
    },
  );

  // GET …/bulk_send_batch/{bulkSendBatchId} (BulkSendV2Batch_GetBulkSendBatchStatus → #/definitions/bulkSendBatchStatus).
  app.get<{ Params: BatchParams }>(
    '/accounts/:accountId/bulk_send_batch/:bulkSendBatchId',
    { schema: bulkSendBatchParams },
    async (request) => batchStatusJson(request, batchOf(request)),
  );

  // PUT …/bulk_send_batch/{bulkSendBatchId} (BulkSendV2Batch_PutBulkSendBatchStatus, #/definitions/bulkSendBatchRequest): renames it.
  app.put<{ Params: BatchParams }>(
    '/accounts/:accountId/bulk_send_batch/:bulkSendBatchId',
    { schema: bulkSendBatchParams },
    async (request) => {
      const batch = batchOf(request);
      const body = lenientObject(camelCaseKeys(request.body), 'bulkSendBatchRequest') ?? {};
      const name = lenientString(body['batchName'], 'batchName');
      if (!name) throw apiErrors.invalidBody("'batchName' is required.");
      request.server.sandbox.bulkSend.renameBatch(batch.accountId, batch.id, name);
      return batchStatusJson(request, { ...batch, name });
    },
  );

  // GET …/bulk_send_batch/{bulkSendBatchId}/envelopes: where the batch's `envelopesUri` points. DocuSign
  // answers it with #/definitions/envelopesInformation (the path is newer than the Swagger kept here); the
  // copies made so far, in list order.
  app.get<{ Params: BatchParams; Querystring: BatchesQuery }>(
    '/accounts/:accountId/bulk_send_batch/:bulkSendBatchId/envelopes',
    { schema: { ...bulkSendBatchParams, ...bulkSendBatchesQuery } },
    async (request) => {
      const batch = batchOf(request);
      const { sandbox } = request.server;
      const { start, count } = paging(request.query);
      const ids = sandbox.bulkSend.envelopeIds(batch.id);
      const page = ids
        .slice(start, start + count)
        .map((id) => sandbox.envelopes.get(batch.accountId, id))
        .filter((e) => e !== undefined);
      const fields = sandbox.envelopes.customFieldsOfMany(page.map((e) => e.id));
      const withRecipients = (request.query.include ?? '').split(',').includes('recipients');
      return {
        envelopes: page.map((e) =>
          envelopeJson(e, {
            customFields: fields.get(e.id) ?? [],
            ...(withRecipients ? { recipients: sandbox.envelopes.recipients(e.id) } : {}),
          }),
        ),
        resultSetSize: String(page.length),
        totalSetSize: String(ids.length),
        startPosition: String(start),
        endPosition: String(Math.max(start + page.length - 1, 0)),
      };
    },
  );
};
