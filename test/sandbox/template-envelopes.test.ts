import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, expectApiError, login, makePdf, templateId as seedTemplateId } from './helpers/api.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// Envelopes from templates made through the API (issue 21, part 4): one
// template with templateRoles, tabs filled by label, signed over HTTP; and
// compositeTemplates joining a stored template, the seed template and an
// inline PDF, whose documents are the three.

let sandbox: RunningSandbox;
let base: string;
let leasePdf: Buffer;
let annexPdf: Buffer;

beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
  leasePdf = await makePdf(1, 'Lease');
  annexPdf = await makePdf(2, 'Annex');
});
afterAll(async () => {
  await sandbox.close();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function createLeaseTemplate(): Promise<string> {
  const r = await call(`${base}/templates`, {
    headers: authHeader(),
    body: {
      name: `Lease ${Math.random()}`,
      emailSubject: 'Your lease',
      documents: [{ documentId: '1', name: 'lease.pdf', documentBase64: leasePdf.toString('base64') }],
      recipients: {
        signers: [
          {
            recipientId: '1',
            roleName: 'tenant',
            routingOrder: '1',
            tabs: {
              signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '600' }],
              textTabs: [
                {
                  tabLabel: 'rent',
                  documentId: '1',
                  pageNumber: '1',
                  xPosition: '100',
                  yPosition: '200',
                  locked: 'true',
                },
              ],
            },
          },
        ],
        carbonCopies: [{ recipientId: '2', roleName: 'agent', routingOrder: '2' }],
      },
    },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.templateId as string;
}

async function signingUrl(envelopeId: string, name: string, email: string, clientUserId: string): Promise<string> {
  const view = await call(`${base}/envelopes/${envelopeId}/views/recipient`, {
    headers: authHeader(),
    body: { email, userName: name, clientUserId, authenticationMethod: 'none', returnUrl: 'http://127.0.0.1:9/done' },
  });
  expect(view.status, JSON.stringify(view.json)).toBe(201);
  return view.json.url as string;
}

describe('envelopes from stored templates', () => {
  it('fills a created template’s roles and tabs by label, is signed over HTTP, and its document downloads', async () => {
    const templateId = await createLeaseTemplate();
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        status: 'sent',
        templateRoles: [
          {
            roleName: 'tenant',
            name: 'Tess Tenant',
            email: 'tess@example.com',
            clientUserId: 'tess-1',
            tabs: { textTabs: [{ tabLabel: 'rent', value: '1200 EUR' }] },
          },
          { roleName: 'agent', name: 'Agency', email: 'agency@example.com' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const envelope = await call(`${base}/envelopes/${envelopeId}`, { headers: authHeader() });
    expect(envelope.json.emailSubject).toBe('Your lease');
    const recipients = await call(`${base}/envelopes/${envelopeId}/recipients?include_tabs=true`, {
      headers: authHeader(),
    });
    expect(recipients.json.signers).toHaveLength(1);
    expect(recipients.json.signers[0]).toMatchObject({ recipientId: '1', roleName: 'tenant', name: 'Tess Tenant' });
    expect(recipients.json.signers[0].tabs.textTabs[0]).toMatchObject({
      tabLabel: 'rent',
      value: '1200 EUR',
      xPosition: '100',
    });
    // The template's carbon copy stays a carbon copy: templateRoles name people, not kinds.
    expect(recipients.json.carbonCopies[0]).toMatchObject({ roleName: 'agent', email: 'agency@example.com' });

    const event = await signOverHttp(
      await signingUrl(envelopeId, 'Tess Tenant', 'tess@example.com', 'tess-1'),
      'Tess Tenant',
    );
    expect(event).toBe('signing_complete');
    expect((await call(`${base}/envelopes/${envelopeId}`, { headers: authHeader() })).json.status).toBe('completed');
    const signed = await call(`${base}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(signed.status).toBe(200);
    expect(signed.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Stamped: not the template's bytes any more.
    expect(sha(signed.bytes)).not.toBe(sha(leasePdf));
  });

  it('joins a stored template, the seed template and an inline PDF as compositeTemplates: three documents, one signer merged', async () => {
    const templateId = await createLeaseTemplate();
    const tess = { name: 'Tess Tenant', email: 'tess@example.com', clientUserId: 'tess-1' };
    const boss = { name: 'Bo Boss', email: 'bo@example.com', clientUserId: 'bo-1' };
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        emailSubject: 'Lease, contract and annex',
        status: 'sent',
        compositeTemplates: [
          {
            compositeTemplateId: '1',
            serverTemplates: [{ sequence: '1', templateId }],
            inlineTemplates: [
              {
                sequence: '2',
                recipients: {
                  // The rent is a required text field of the role: the signing page would not finish without it.
                  signers: [
                    {
                      ...tess,
                      recipientId: '1',
                      roleName: 'tenant',
                      tabs: { textTabs: [{ tabLabel: 'rent', value: '900 EUR' }] },
                    },
                  ],
                },
              },
            ],
          },
          {
            compositeTemplateId: '2',
            serverTemplates: [{ sequence: '1', templateId: seedTemplateId }],
            inlineTemplates: [
              {
                sequence: '2',
                recipients: {
                  signers: [
                    { ...tess, recipientId: '1', roleName: 'employee' },
                    { ...boss, recipientId: '2', roleName: 'employer' },
                  ],
                },
              },
            ],
          },
          {
            compositeTemplateId: '3',
            document: { documentId: '1', name: 'annex.pdf', documentBase64: annexPdf.toString('base64') },
            inlineTemplates: [
              {
                sequence: '1',
                recipients: {
                  signers: [
                    {
                      ...tess,
                      recipientId: '1',
                      tabs: {
                        signHereTabs: [{ documentId: '1', pageNumber: '2', xPosition: '200', yPosition: '300' }],
                      },
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const documents = await call(`${base}/envelopes/${envelopeId}/documents`, { headers: authHeader() });
    const contents = documents.json.envelopeDocuments.filter((d: { type: string }) => d.type === 'content');
    expect(contents.map((d: { documentId: string; name: string }) => [d.documentId, d.name])).toEqual([
      ['1', 'lease.pdf'],
      ['2', 'Employment contract.pdf'],
      ['3', 'annex.pdf'],
    ]);
    const recipients = await call(`${base}/envelopes/${envelopeId}/recipients?include_tabs=true`, {
      headers: authHeader(),
    });
    expect(recipients.json.signers.map((s: { recipientId: string; name: string }) => [s.recipientId, s.name])).toEqual([
      ['1', 'Tess Tenant'],
      ['2', 'Bo Boss'],
    ]);
    // Tess signs on every document: the lease's role tab, the seed's employee tab, the annex's own (renumbered to 3).
    const tessTabs = recipients.json.signers[0].tabs.signHereTabs.map((t: { documentId: string }) => t.documentId);
    expect(tessTabs.sort()).toEqual(['1', '2', '3']);
    expect(recipients.json.signers[1].tabs.signHereTabs.map((t: { documentId: string }) => t.documentId)).toEqual([
      '2',
    ]);

    expect(await signOverHttp(await signingUrl(envelopeId, tess.name, tess.email, tess.clientUserId), tess.name)).toBe(
      'signing_complete',
    );
    expect(await signOverHttp(await signingUrl(envelopeId, boss.name, boss.email, boss.clientUserId), boss.name)).toBe(
      'signing_complete',
    );
    expect((await call(`${base}/envelopes/${envelopeId}`, { headers: authHeader() })).json.status).toBe('completed');
    for (const [documentId, pages] of [
      ['1', 1],
      ['2', 1],
      ['3', 2],
    ] as const) {
      const file = await call(`${base}/envelopes/${envelopeId}/documents/${documentId}`, { headers: authHeader() });
      expect(file.status).toBe(200);
      expect(contents.find((d: { documentId: string }) => d.documentId === documentId).pages).toHaveLength(pages);
    }
  });

  it('refuses one recipientId for two people across composites, and a tab on a document its composite does not bring', async () => {
    const templateId = await createLeaseTemplate();
    const clash = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        emailSubject: 'x',
        status: 'sent',
        compositeTemplates: [
          {
            serverTemplates: [{ sequence: '1', templateId }],
            inlineTemplates: [
              {
                sequence: '2',
                recipients: { signers: [{ recipientId: '1', roleName: 'tenant', name: 'A', email: 'a@example.com' }] },
              },
            ],
          },
          {
            serverTemplates: [{ sequence: '1', templateId: seedTemplateId }],
            inlineTemplates: [
              {
                sequence: '2',
                recipients: {
                  signers: [{ recipientId: '1', roleName: 'employee', name: 'B', email: 'b@example.com' }],
                },
              },
            ],
          },
        ],
      },
    });
    expectApiError(clash, 400, 'INVALID_REQUEST_BODY');
    const offDocument = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        emailSubject: 'x',
        status: 'sent',
        compositeTemplates: [
          {
            document: { documentId: '1', name: 'annex.pdf', documentBase64: annexPdf.toString('base64') },
            inlineTemplates: [
              {
                sequence: '1',
                recipients: {
                  signers: [
                    {
                      recipientId: '1',
                      name: 'A',
                      email: 'a@example.com',
                      tabs: { signHereTabs: [{ documentId: '4', pageNumber: '1', xPosition: '1', yPosition: '1' }] },
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    });
    expectApiError(offDocument, 400, 'INVALID_DOCUMENT_ID');
    const unknown = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        emailSubject: 'x',
        status: 'sent',
        compositeTemplates: [
          { serverTemplates: [{ sequence: '1', templateId: '0b6f3a3e-1111-4222-8333-944455556666' }] },
        ],
      },
    });
    expectApiError(unknown, 400, 'TEMPLATE_ID_INVALID');
  });

  it('an envelope sent from a template is unaffected when the template is deleted', async () => {
    const templateId = await createLeaseTemplate();
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        status: 'sent',
        templateRoles: [
          {
            roleName: 'tenant',
            name: 'T',
            email: 't@example.com',
            clientUserId: 't',
            tabs: { textTabs: [{ tabLabel: 'rent', value: '700 EUR' }] },
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    await call(`${base}/folders/recyclebin`, {
      method: 'PUT',
      headers: authHeader(),
      body: { envelopeIds: [templateId] },
    });
    const envelopeId = created.json.envelopeId as string;
    const file = await call(`${base}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(sha(file.bytes)).toBe(sha(leasePdf));
    expect(await signOverHttp(await signingUrl(envelopeId, 'T', 't@example.com', 't'), 'T')).toBe('signing_complete');
  });
});
