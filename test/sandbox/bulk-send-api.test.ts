import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import {
  authHeader,
  call,
  documentEnvelope,
  expectApiError,
  expectShape,
  login,
  makePdf,
  templateId as seedTemplateId,
} from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// The sandbox's Bulk Send (issue 24, item 3) over HTTP through inject() on v2.1: every
// JSON answer is checked by `call` against the Swagger of its operation
// (BulkSendV2CRUD, BulkSendV2Send, BulkSendV2Test, BulkSendV2Batch).

let sandbox: RunningSandbox;
let base: string;
let pdf: Buffer;

beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
  pdf = await makePdf(1, 'Offer');
});
afterAll(async () => {
  await sandbox.close();
});

/** A draft with one embedded signer holding a labelled text tab, and the custom fields its copies fill. */
async function draftModel(): Promise<string> {
  const body = documentEnvelope(pdf, {
    status: 'created',
    recipients: {
      signers: [
        {
          name: 'Placeholder',
          email: 'placeholder@example.com',
          recipientId: '1',
          clientUserId: 'placeholder',
          tabs: {
            signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }],
            textTabs: [{ tabLabel: 'salary', documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' }],
          },
        },
      ],
    },
    customFields: { textCustomFields: [{ name: 'employee', value: 'none', show: 'false' }] },
  });
  const r = await call(`${base}/envelopes`, { headers: authHeader(), body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.envelopeId as string;
}

function copies(n: number, from = 0): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    emailSubject: `Offer ${from + i}`,
    recipients: [
      {
        recipientId: '1',
        name: `Person ${from + i}`,
        email: `p${from + i}@example.com`,
        clientUserId: `emp-${from + i}`,
        ...(i === 0 ? { accessCode: 'door-1234' } : {}),
        tabs: [{ tabLabel: 'salary', initialValue: String(1000 + from + i) }],
      },
    ],
    customFields: [{ name: 'employee', value: `e-${from + i}` }],
  }));
}

/**
 * A batch's envelopes (its `envelopesUri`): DocuSign's newer operation
 * BulkSendV2Batch_GetBulkSendBatchEnvelopes, absent from the Swagger kept
 * here, so `call` cannot find it; its answer is DocuSign's envelopesInformation.
 */
async function batchEnvelopes(uri: string): Promise<Record<string, any>> {
  const response = await sandboxFetch(`${base}${uri}?include=recipients`, { headers: authHeader() });
  expect(response.status).toBe(200);
  const json = (await response.json()) as Record<string, any>;
  expectShape('envelopesInformation', json, 'v2.1');
  return json;
}

/** Polls the batch through the API until nothing is queued: each request lets the sandbox's worker go on. */
async function settledBatch(batchId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await call(`${base}/bulk_send_batch/${batchId}`, { headers: authHeader() });
    expect(r.status).toBe(200);
    if (r.json.queued === '0') return r.json as Record<string, unknown>;
  }
}

describe('Bulk Send API', () => {
  it('creates, reads, lists, replaces and deletes a list', async () => {
    const created = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: { name: 'offers', bulkCopies: copies(2) },
    });
    expect(created.status).toBe(201);
    const listId = created.json.listId as string;
    expect(created.json).toMatchObject({ name: 'offers', bulkCopies: [{ emailSubject: 'Offer 0' }, {}] });
    const read = await call(`${base}/bulk_send_lists/${listId}`, { headers: authHeader() });
    expect(read.json.bulkCopies).toHaveLength(2);
    expect(JSON.stringify(read.json)).not.toContain('accessCode');
    // An access code is kept as a hash only, never as sent.
    const stored = sandbox.app.sandbox.db
      .prepare('SELECT copies_json AS c FROM bulk_send_lists WHERE id = ?')
      .get(listId) as {
      c: string;
    };
    expect(stored.c).not.toContain('door-1234');
    expect(stored.c).toContain('accessCodeHash');
    const listed = await call(`${base}/bulk_send_lists`, { headers: authHeader() });
    expect(listed.json.bulkListSummaries).toContainEqual(
      expect.objectContaining({ bulkSendListId: listId, name: 'offers' }),
    );
    const replaced = await call(`${base}/bulk_send_lists/${listId}`, {
      method: 'PUT',
      headers: authHeader(),
      body: { name: 'offers-2', bulkCopies: copies(3) },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.bulkCopies).toHaveLength(3);
    const deleted = await call(`${base}/bulk_send_lists/${listId}`, { method: 'DELETE', headers: authHeader() });
    expect(deleted.status).toBe(200);
    expect(deleted.json.bulkListSummaries.map((s: { bulkSendListId: string }) => s.bulkSendListId)).not.toContain(
      listId,
    );
    expectApiError(
      await call(`${base}/bulk_send_lists/${listId}`, { headers: authHeader() }),
      400,
      'BULK_SEND_LIST_DOES_NOT_EXIST',
    );
  });

  it('refuses a list without a name, without copies, with more than 1,000, or with a recipient named by nothing', async () => {
    for (const body of [
      { bulkCopies: copies(1) },
      { name: 'x', bulkCopies: [] },
      { name: 'x', bulkCopies: copies(1001) },
      { name: 'x', bulkCopies: [{ recipients: [{ name: 'A', email: 'a@example.com' }] }] },
    ])
      expectApiError(
        await call(`${base}/bulk_send_lists`, { headers: authHeader(), body }),
        400,
        'INVALID_REQUEST_BODY',
      );
    expectApiError(
      await call(`${base}/bulk_send_lists/not-a-guid`, { headers: authHeader() }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
  });

  it('sends a list with a draft as the model: one sent envelope per copy, with its recipients, tab values, custom fields and subject', async () => {
    const model = await draftModel();
    const list = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: { name: 'l', bulkCopies: copies(45) },
    });
    const test = await call(`${base}/bulk_send_lists/${list.json.listId}/test`, {
      headers: authHeader(),
      body: { envelopeOrTemplateId: model },
    });
    expect(test.status).toBe(201);
    expect(test.json).toMatchObject({ canBeSent: true });
    const sent = await call(`${base}/bulk_send_lists/${list.json.listId}/send`, {
      headers: authHeader(),
      body: { envelopeOrTemplateId: model, batchName: 'offers batch' },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    expect(sent.json).toMatchObject({ batchName: 'offers batch', batchSize: '45', envelopeOrTemplateId: model });
    const batchId = sent.json.batchId as string;

    const status = await settledBatch(batchId);
    expect(status).toMatchObject({
      batchSize: '45',
      sent: '45',
      failed: '0',
      queued: '0',
      mailingListId: list.json.listId,
    });
    const summaries = await call(`${base}/bulk_send_batch?batch_ids=${batchId}`, { headers: authHeader() });
    expect(summaries.json.bulkBatchSummaries).toEqual([
      expect.objectContaining({ batchId, batchName: 'offers batch', sent: '45', queued: '0' }),
    ]);

    const envelopes = await batchEnvelopes(status.envelopesUri as string);
    expect(envelopes.totalSetSize).toBe('45');
    const seventh = envelopes.envelopes[7];
    expect(seventh).toMatchObject({ status: 'sent', emailSubject: 'Offer 7' });
    expect(seventh.customFields.textCustomFields).toContainEqual(
      expect.objectContaining({ name: 'employee', value: 'e-7' }),
    );
    const signer = seventh.recipients.signers[0];
    expect(signer).toMatchObject({ name: 'Person 7', email: 'p7@example.com', clientUserId: 'emp-7', status: 'sent' });
    const tabs = await call(`${base}/envelopes/${seventh.envelopeId}/recipients/1/tabs`, { headers: authHeader() });
    expect(tabs.json.textTabs[0]).toMatchObject({ tabLabel: 'salary', value: '1007' });
    // The model stays a draft, and a copy's envelope id is its own.
    const modelNow = await call(`${base}/envelopes/${model}`, { headers: authHeader() });
    expect(modelNow.json.status).toBe('created');
    expect(new Set(envelopes.envelopes.map((e: { envelopeId: string }) => e.envelopeId)).size).toBe(45);
  });

  it('sends a list with the seed template as the model: roles filled by roleName', async () => {
    const list = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: {
        name: 'contracts',
        bulkCopies: [0, 1].map((i) => ({
          recipients: [
            { roleName: 'employee', name: `E ${i}`, email: `e${i}@example.com` },
            { roleName: 'employer', name: 'Boss', email: 'boss@example.com' },
          ],
        })),
      },
    });
    const sent = await call(`${base}/bulk_send_lists/${list.json.listId}/send`, {
      headers: authHeader(),
      body: { envelopeOrTemplateId: seedTemplateId },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    expect(sent.json.batchName).toBe('contracts');
    const status = await settledBatch(sent.json.batchId as string);
    expect(status).toMatchObject({ sent: '2', failed: '0' });
    const envelopes = await batchEnvelopes(status.envelopesUri as string);
    expect(envelopes.envelopes[1].recipients.signers[0]).toMatchObject({ roleName: 'employee', name: 'E 1' });
  });

  it('refuses a send whose model does not fit the list, is not a draft, or does not exist; a test says why', async () => {
    const model = await draftModel();
    const misfit = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: {
        name: 'misfit',
        bulkCopies: [
          {
            recipients: [{ recipientId: '9', name: 'A', email: 'a@example.com' }],
            customFields: [{ name: 'other', value: 'x' }],
          },
        ],
      },
    });
    const test = await call(`${base}/bulk_send_lists/${misfit.json.listId}/test`, {
      headers: authHeader(),
      body: { envelopeOrTemplateId: model },
    });
    expect(test.json.canBeSent).toBe(false);
    expect(test.json.validationErrorDetails).toHaveLength(2);
    expectApiError(
      await call(`${base}/bulk_send_lists/${misfit.json.listId}/send`, {
        headers: authHeader(),
        body: { envelopeOrTemplateId: model },
      }),
      400,
      'BULK_SEND_ENVELOPE_LIST_CONTAINS_INVALID_DATA',
    );
    const fits = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: { name: 'fits', bulkCopies: copies(1) },
    });
    const sentEnvelope = await call(`${base}/envelopes`, { headers: authHeader(), body: documentEnvelope(pdf) });
    expectApiError(
      await call(`${base}/bulk_send_lists/${fits.json.listId}/send`, {
        headers: authHeader(),
        body: { envelopeOrTemplateId: sentEnvelope.json.envelopeId },
      }),
      400,
      'BULK_SEND_ENVELOPE_NOT_IN_SENDABLE_STATE',
    );
    expectApiError(
      await call(`${base}/bulk_send_lists/${fits.json.listId}/send`, {
        headers: authHeader(),
        body: { envelopeOrTemplateId: '00000000-0000-0000-0000-000000000000' },
      }),
      400,
      'BULK_SEND_ENVELOPE_OR_TEMPLATE_NOT_FOUND',
    );
    expectApiError(
      await call(`${base}/bulk_send_batch/00000000-0000-0000-0000-000000000000`, { headers: authHeader() }),
      400,
      'BULK_SEND_BATCH_DOES_NOT_EXIST',
    );
  });

  it('renames a batch; filters batches by status', async () => {
    const model = await draftModel();
    const list = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: { name: 'r', bulkCopies: copies(1) },
    });
    const sent = await call(`${base}/bulk_send_lists/${list.json.listId}/send`, {
      headers: authHeader(),
      body: { envelopeOrTemplateId: model },
    });
    await settledBatch(sent.json.batchId as string);
    const renamed = await call(`${base}/bulk_send_batch/${sent.json.batchId}`, {
      method: 'PUT',
      headers: authHeader(),
      body: { batchName: 'renamed' },
    });
    expect(renamed.json.batchName).toBe('renamed');
    const queued = await call(`${base}/bulk_send_batch?status=queued`, { headers: authHeader() });
    expect(queued.json.bulkBatchSummaries).toEqual([]);
    expectApiError(
      await call(`${base}/bulk_send_batch?status=lost`, { headers: authHeader() }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
  });
});
