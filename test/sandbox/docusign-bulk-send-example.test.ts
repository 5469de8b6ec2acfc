import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, login, makePdf } from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// DocuSign's eg031 (code-examples-node, lib/eSignature/examples/bulkSendEnvelope.js),
// its request bodies as the example sends them, accepted unchanged: a bulk
// send list whose copies name the roles `signer` and `CC`; a draft model
// (`status: 'Created'`, an anchored sign-here, a carbon copy) given the list's
// id as a custom field; the send; the batch's status.

let sandbox: RunningSandbox;
let base: string;
beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => sandbox?.close());

const recipients = (signer: string, cc: string) => [
  { name: `${signer} Signer`, email: `${signer}@example.com`, roleName: 'signer' },
  { name: `${cc} Copy`, email: `${cc}@example.com`, roleName: 'CC' },
];

describe("DocuSign's eg031 (bulk sending), unchanged", () => {
  it('makes one envelope per copy, each with the copy’s people in the model’s roles', async () => {
    const list = await call(`${base}/bulk_send_lists`, {
      headers: authHeader(),
      body: {
        name: 'sample.csv',
        bulkCopies: [{ recipients: recipients('ann', 'bob') }, { recipients: recipients('cy', 'dee') }],
      },
    });
    expect(list.status, JSON.stringify(list.json)).toBe(201);
    const listId = list.json.listId as string;

    const pdf = await makePdf(1, 'Lorem ipsum. Sign: /sn1/');
    const envelope = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        envelopeIdStamping: 'true',
        emailSubject: 'Please sign',
        status: 'Created',
        documents: [{ documentBase64: pdf.toString('base64'), name: 'lorem', fileExtension: 'pdf', documentId: '2' }],
        recipients: {
          signers: [
            {
              name: 'Multi Bulk Recipient::signer',
              email: 'multiBulkRecipients-signer@docusign.com',
              roleName: 'signer',
              routingOrder: '1',
              status: 'created',
              deliveryMethod: 'email',
              recipientId: '1',
              recipientType: 'signer',
              tabs: {
                signHereTabs: [
                  { anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
                ],
              },
            },
          ],
          carbonCopies: [
            {
              name: 'Multi Bulk Recipient::cc',
              email: 'multiBulkRecipients-cc@docusign.com',
              roleName: 'cc',
              routingOrder: '2',
              status: 'created',
              deliveryMethod: 'email',
              recipientId: '2',
              recipientType: 'cc',
            },
          ],
        },
      },
    });
    expect(envelope.status, JSON.stringify(envelope.json)).toBe(201);
    const envelopeId = envelope.json.envelopeId as string;

    const fields = await call(`${base}/envelopes/${envelopeId}/custom_fields`, {
      headers: authHeader(),
      body: { textCustomFields: [{ name: 'mailingListId', required: 'false', show: 'false', value: listId }] },
    });
    expect(fields.status, JSON.stringify(fields.json)).toBe(201);

    const sent = await call(`${base}/bulk_send_lists/${listId}/send`, {
      headers: authHeader(),
      body: { envelopeOrTemplateId: envelopeId },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    const batchId = sent.json.batchId as string;

    // As the example does next: the batch's status (asked until nothing is queued: each answer lets the worker go on).
    let status;
    for (;;) {
      status = await call(`${base}/bulk_send_batch/${batchId}`, { headers: authHeader() });
      expect(status.status).toBe(200);
      if (status.json.queued === '0') break;
    }
    expect(status.json).toMatchObject({ batchSize: '2', sent: '2', failed: '0' });

    // Where the batch's envelopesUri points (not in the kept Swagger: read as plain JSON).
    const made = await sandboxFetch(`${base}/bulk_send_batch/${batchId}/envelopes?include=recipients`, {
      headers: authHeader(),
    });
    expect(made.status).toBe(200);
    const { envelopes } = (await made.json()) as {
      envelopes: Array<{ recipients: Record<string, Array<{ email: string }>> }>;
    };
    const people = envelopes.map((e) => [
      e.recipients['signers']?.[0]?.email,
      e.recipients['carbonCopies']?.[0]?.email,
    ]);
    expect(people).toEqual([
      ['ann@example.com', 'bob@example.com'],
      ['cy@example.com', 'dee@example.com'],
    ]);
  });
});
