import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import {
  authHeader,
  call,
  expectApiError,
  expectShape,
  login,
  makePdf,
  templateId as seedTemplateId,
} from './helpers/api.js';
import { swaggerErrors } from './helpers/swagger.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// The sandbox's templates API as DocuSign's (issue 21, part 4), over real
// HTTP on v2 and v2.1: every JSON answer is checked by `call` against the
// Swagger of its operation, and the tests check the shapes again by name.

let sandbox: RunningSandbox;
let dataDir: string;
let base: Record<'v2' | 'v2.1', string>;
let pdf: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'signrun-templates-'));
  sandbox = await injectedSandbox({ dataDir });
  const { accountId } = await login(sandbox.rootUrl);
  base = {
    v2: `${sandbox.origin}/restapi/v2/accounts/${accountId}`,
    'v2.1': `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`,
  };
  pdf = await makePdf(2, 'Lease');
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function leaseTemplate(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: 'A lease, kept as code',
    emailSubject: 'Please sign the lease',
    emailBlurb: 'The lease is ready.',
    documents: [{ documentId: '1', name: 'lease.pdf', fileExtension: 'pdf', documentBase64: pdf.toString('base64') }],
    recipients: {
      signers: [
        {
          recipientId: '1',
          roleName: 'tenant',
          routingOrder: '1',
          tabs: {
            signHereTabs: [{ documentId: '1', pageNumber: '2', xPosition: '100', yPosition: '600' }],
            textTabs: [{ tabLabel: 'rent', documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' }],
          },
        },
      ],
      carbonCopies: [
        { recipientId: '2', roleName: 'agent', routingOrder: '2', name: 'Agency', email: 'agency@example.com' },
      ],
    },
    ...extra,
  };
}

async function create(version: 'v2' | 'v2.1', body: Record<string, unknown>): Promise<string> {
  const r = await call(`${base[version]}/templates`, { headers: authHeader(), body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  expectShape('templateSummary', r.json, version);
  expect(r.json).toMatchObject({ name: body['name'], uri: `/templates/${r.json.templateId}` });
  return r.json.templateId as string;
}

describe('templates API', () => {
  it('creates a template and reads it whole: documents, recipients of two kinds with roles, tabs (v2 and v2.1)', async () => {
    const id = await create('v2.1', leaseTemplate('Lease A'));
    const v21 = await call(`${base['v2.1']}/templates/${id}`, { headers: authHeader() });
    expect(v21.status).toBe(200);
    expectShape('envelopeTemplate', v21.json, 'v2.1');
    expect(v21.json).toMatchObject({
      templateId: id,
      name: 'Lease A',
      description: 'A lease, kept as code',
      emailSubject: 'Please sign the lease',
      emailBlurb: 'The lease is ready.',
      pageCount: '2',
      owner: { userName: 'sandbox@signrun.test' },
      documents: [{ documentId: '1', name: 'lease.pdf', pages: '2' }],
    });
    expect(v21.json.envelopeTemplateDefinition).toBeUndefined();
    expect(v21.json.recipients.signers[0]).toMatchObject({ recipientId: '1', roleName: 'tenant', routingOrder: '1' });
    expect(v21.json.recipients.signers[0].tabs.textTabs[0].tabLabel).toBe('rent');
    expect(v21.json.recipients.carbonCopies[0]).toMatchObject({ roleName: 'agent', email: 'agency@example.com' });
    const v2 = await call(`${base.v2}/templates/${id}`, { headers: authHeader() });
    expectShape('envelopeTemplate', v2.json, 'v2');
    expect(v2.json.envelopeTemplateDefinition).toMatchObject({ templateId: id, name: 'Lease A', pageCount: 2 });
  });

  it('lists by name with search_text, count and start_position, in the Swagger shape of each version', async () => {
    for (const name of ['Search Alpha 1', 'Search Alpha 2', 'Search Alpha 3', 'Search Beta'])
      await create('v2', leaseTemplate(name));
    for (const version of ['v2', 'v2.1'] as const) {
      const all = await call(`${base[version]}/templates?search_text=search%20alpha`, { headers: authHeader() });
      expect(all.status).toBe(200);
      expectShape('envelopeTemplateResults', all.json, version);
      expect(all.json.envelopeTemplates.map((t: { name: string }) => t.name)).toEqual([
        'Search Alpha 1',
        'Search Alpha 2',
        'Search Alpha 3',
      ]);
      expect(all.json).toMatchObject({ resultSetSize: '3', totalSetSize: '3', startPosition: '0', endPosition: '2' });
      const page = await call(`${base[version]}/templates?search_text=Alpha&count=2&start_position=2`, {
        headers: authHeader(),
      });
      expect(page.json).toMatchObject({ resultSetSize: '1', totalSetSize: '3', startPosition: '2', endPosition: '2' });
      expect(page.json.envelopeTemplates[0]).toMatchObject({
        name: 'Search Alpha 3',
        pageCount: version === 'v2' ? 2 : '2',
      });
    }
    // The seed template is listed too; a wildcard of LIKE is a plain character.
    const seed = await call(`${base.v2}/templates?search_text=employment`, { headers: authHeader() });
    expect(seed.json.envelopeTemplates.map((t: { templateId: string }) => t.templateId)).toEqual([seedTemplateId]);
    const none = await call(`${base.v2}/templates?search_text=%25`, { headers: authHeader() });
    expect(none.json).toMatchObject({ resultSetSize: '0', totalSetSize: '0' });
  });

  it('updates name, subject, documents and recipients with PUT; lastModified moves on', async () => {
    const id = await create('v2.1', leaseTemplate('Lease to change'));
    const before = (await call(`${base['v2.1']}/templates/${id}`, { headers: authHeader() })).json;
    const threePages = await makePdf(3, 'Lease v2');
    const put = await call(`${base['v2.1']}/templates/${id}`, {
      method: 'PUT',
      headers: authHeader(),
      body: {
        name: 'Lease changed',
        emailSubject: 'Sign the new lease',
        documents: [{ documentId: '1', name: 'lease-v2.pdf', documentBase64: threePages.toString('base64') }],
        recipients: {
          signers: [
            {
              recipientId: '1',
              roleName: 'tenant',
              routingOrder: '1',
              tabs: { signHereTabs: [{ documentId: '1', pageNumber: '3', xPosition: '90', yPosition: '90' }] },
            },
            { recipientId: '3', roleName: 'guarantor', routingOrder: '2' },
          ],
        },
      },
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expectShape('templateUpdateSummary', put.json, 'v2.1');
    const after = (await call(`${base['v2.1']}/templates/${id}`, { headers: authHeader() })).json;
    expect(after).toMatchObject({
      name: 'Lease changed',
      emailSubject: 'Sign the new lease',
      description: 'A lease, kept as code',
      pageCount: '3',
    });
    expect(after.documents).toEqual([expect.objectContaining({ name: 'lease-v2.pdf', pages: '3' })]);
    expect(after.recipients.signers.map((s: { roleName: string }) => s.roleName)).toEqual(['tenant', 'guarantor']);
    expect(after.recipients.carbonCopies).toBeUndefined();
    expect(Date.parse(after.lastModified)).toBeGreaterThan(Date.parse(before.lastModified));
    expect(after.created).toBe(before.created);
    // A tab on a page the new document lacks is refused, and nothing changes.
    const bad = await call(`${base.v2}/templates/${id}`, {
      method: 'PUT',
      headers: authHeader(),
      body: {
        recipients: {
          signers: [
            {
              recipientId: '1',
              roleName: 'tenant',
              tabs: { signHereTabs: [{ documentId: '1', pageNumber: '9', xPosition: '1', yPosition: '1' }] },
            },
          ],
        },
      },
    });
    expectApiError(bad, 400, 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT');
    expect((await call(`${base.v2}/templates/${id}/recipients`, { headers: authHeader() })).json.recipientCount).toBe(
      '2',
    );
  });

  it('answers documents, a document PDF, recipients (tabs with include_tabs) and one recipient’s tabs', async () => {
    const id = await create('v2', leaseTemplate('Lease parts'));
    for (const version of ['v2', 'v2.1'] as const) {
      const docs = await call(`${base[version]}/templates/${id}/documents`, { headers: authHeader() });
      expectShape('templateDocumentsResult', docs.json, version);
      expect(docs.json.templateId).toBe(id);
      expect(docs.json.templateDocuments[0]).toMatchObject({ documentId: '1', name: 'lease.pdf' });
      expect(docs.json.templateDocuments[0].pages).toEqual(
        version === 'v2'
          ? '2'
          : [expect.objectContaining({ sequence: '1' }), expect.objectContaining({ sequence: '2' })],
      );
      const recipients = await call(`${base[version]}/templates/${id}/recipients`, { headers: authHeader() });
      expectShape('recipients', recipients.json, version);
      expect(recipients.json.signers[0].tabs).toBeUndefined();
      const withTabs = await call(`${base[version]}/templates/${id}/recipients?include_tabs=true`, {
        headers: authHeader(),
      });
      expect(withTabs.json.signers[0].tabs.signHereTabs).toHaveLength(1);
      const tabs = await call(`${base[version]}/templates/${id}/recipients/1/tabs`, { headers: authHeader() });
      expectShape('tabs', tabs.json, version);
      expect(tabs.json.textTabs[0].tabLabel).toBe('rent');
    }
    const file = await call(`${base.v2}/templates/${id}/documents/1`, { headers: authHeader() });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.bytes.equals(pdf)).toBe(true);
    expectApiError(
      await call(`${base.v2}/templates/${id}/documents/7`, { headers: authHeader() }),
      400,
      'DOCUMENT_DOES_NOT_EXIST',
    );
    expectApiError(
      await call(`${base.v2}/templates/${id}/recipients/9/tabs`, { headers: authHeader() }),
      400,
      'UNKNOWN_ENVELOPE_RECIPIENT',
    );
  });

  it('converts an HTML document at intake, as for envelopes', async () => {
    const html = '<html><body><h1>House rules</h1><p>No pets. Sign here: /rules-sign/</p></body></html>';
    const id = await create('v2.1', {
      name: 'House rules',
      documents: [
        {
          documentId: '1',
          name: 'rules.html',
          fileExtension: 'html',
          documentBase64: Buffer.from(html).toString('base64'),
        },
      ],
    });
    const file = await call(`${base.v2}/templates/${id}/documents/1`, { headers: authHeader() });
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('deletes a template as DocuSign does (recycle bin): gone from reads, lists and new envelopes', async () => {
    const id = await create('v2', leaseTemplate('Lease to delete'));
    const moved = await call(`${base['v2.1']}/folders/recyclebin`, {
      method: 'PUT',
      headers: authHeader(),
      body: { envelopeIds: [id] },
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    for (const version of ['v2', 'v2.1'] as const) {
      expectApiError(
        await call(`${base[version]}/templates/${id}`, { headers: authHeader() }),
        400,
        'TEMPLATE_ID_INVALID',
      );
      expectApiError(
        await call(`${base[version]}/templates/${id}/documents`, { headers: authHeader() }),
        400,
        'TEMPLATE_ID_INVALID',
      );
    }
    const listed = await call(`${base.v2}/templates?search_text=Lease%20to%20delete`, { headers: authHeader() });
    expect(listed.json.totalSetSize).toBe('0');
    const envelope = await call(`${base.v2}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId: id,
        status: 'sent',
        emailSubject: 'x',
        templateRoles: [{ roleName: 'tenant', name: 'T', email: 't@example.com' }],
      },
    });
    expectApiError(envelope, 400, 'TEMPLATE_ID_INVALID');
  });

  it('deletes a template by DELETE too, as the sandbox contract of signrun offers (the same deletion)', async () => {
    // Not a Swagger operation: asked with fetch, not with the Swagger-checking helper.
    const remove = (id: string) =>
      sandboxFetch(`${base['v2.1']}/templates/${id}`, { method: 'DELETE', headers: authHeader() });
    const id = await create('v2.1', leaseTemplate('Lease deleted by DELETE'));
    const deleted = await remove(id);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ templateId: id, name: 'Lease deleted by DELETE' });
    expectApiError(await call(`${base.v2}/templates/${id}`, { headers: authHeader() }), 400, 'TEMPLATE_ID_INVALID');
    const again = await remove(id);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { errorCode: string }).errorCode).toBe('TEMPLATE_ID_INVALID');
  });

  it('answers an unknown template with TEMPLATE_ID_INVALID on every template path', async () => {
    const unknown = '0b6f3a3e-1111-4222-8333-944455556666';
    for (const path of ['', '/documents', '/documents/1', '/recipients', '/recipients/1/tabs'])
      expectApiError(
        await call(`${base['v2.1']}/templates/${unknown}${path}`, { headers: authHeader() }),
        400,
        'TEMPLATE_ID_INVALID',
      );
    expectApiError(
      await call(`${base.v2}/templates/${unknown}`, { method: 'PUT', headers: authHeader(), body: { name: 'x' } }),
      400,
      'TEMPLATE_ID_INVALID',
    );
  });

  it('keeps templates across a restart of the data folder, and the seed template as it was', async () => {
    const id = await create('v2', leaseTemplate('Lease kept'));
    await sandbox.close();
    sandbox = await injectedSandbox({ dataDir });
    const { accountId } = await login(sandbox.rootUrl);
    base = {
      v2: `${sandbox.origin}/restapi/v2/accounts/${accountId}`,
      'v2.1': `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`,
    };
    const kept = await call(`${base.v2}/templates/${id}`, { headers: authHeader() });
    expect(kept.json.envelopeTemplateDefinition.name).toBe('Lease kept');
    const seed = await call(`${base['v2.1']}/templates/${seedTemplateId}`, { headers: authHeader() });
    expect(swaggerErrors('envelopeTemplate', seed.json, 'v2.1')).toEqual([]);
    expect(seed.json.recipients.signers.map((s: { roleName: string }) => s.roleName)).toEqual(['employee', 'employer']);
  });
});
