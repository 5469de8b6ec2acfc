import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, login } from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// DocuSign's eg040 (code-examples-node, lib/eSignature/examples/setDocumentVisibility.js):
// enforceSignerVisibility, signer 1 with excludedDocuments [2, 3], signer 2
// with [1], a carbon copy. The envelope is the example's (its fields as
// docusign-esign sends them); its DOCX and PDF are text documents here with
// the same anchors. The sandbox accepted excludedDocuments and showed every
// document to everyone.

const text = (s: string) => Buffer.from(s).toString('base64');

const eg040Envelope = (enforce: boolean) => ({
  emailSubject: 'Please sign this document set',
  enforceSignerVisibility: String(enforce),
  documents: [
    {
      documentBase64: text('<html><body><h1>Order acknowledgement</h1><p>Agreed: **signature_1**</p></body></html>'),
      name: 'Order acknowledgement',
      fileExtension: 'html',
      documentId: '1',
    },
    { documentBase64: text('Battle plan. Signed: /sn1/'), name: 'Battle Plan', fileExtension: 'txt', documentId: '2' },
    { documentBase64: text('Lorem ipsum. Signed: /sn1/'), name: 'Lorem Ipsum', fileExtension: 'txt', documentId: '3' },
  ],
  recipients: {
    signers: [
      {
        email: 'visible-1@example.com',
        name: 'Ann First',
        recipientId: '1',
        routingOrder: '1',
        excludedDocuments: [2, 3],
        tabs: {
          signHereTabs: [
            { anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
          ],
        },
      },
      {
        email: 'visible-2@example.com',
        name: 'Bob Second',
        recipientId: '2',
        routingOrder: '2',
        excludedDocuments: [1],
        tabs: {
          signHereTabs: [{ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' }],
        },
      },
    ],
    carbonCopies: [{ email: 'visible-cc@example.com', name: 'Cee Cee', routingOrder: '3', recipientId: '3' }],
  },
  status: 'sent',
});

let sandbox: RunningSandbox;
let baseUrl: string;
beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true });
  baseUrl = (await login(`${sandbox.origin}/restapi/v2.1`)).baseUrl;
});
afterAll(async () => sandbox.close());

async function visibility(envelopeId: string, recipientId: string): Promise<Record<string, string>> {
  const r = await call(`${baseUrl}/envelopes/${envelopeId}/recipients/${recipientId}/document_visibility`, {
    headers: authHeader(),
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return Object.fromEntries(
    (r.json.documentVisibility as { documentId: string; visible: string }[]).map((d) => [d.documentId, d.visible]),
  );
}

/** Opens the signing link of the recipient's message, as the person does; the page and its session path. */
async function openSigningLink(email: string): Promise<{ page: string; sessionPath: string; cookie: string }> {
  const outbox = await call(`${sandbox.origin}/sandbox/outbox?format=json`);
  const message = (outbox.json.messages as { to: string; links: string[] }[]).find((m) => m.to === email)!;
  const opened = await sandboxFetch(message.links[0]!, { redirect: 'manual' });
  const sessionPath = opened.headers.get('location')!;
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  const page = await sandboxFetch(new URL(sessionPath, sandbox.origin), { headers: { cookie } });
  return { page: await page.text(), sessionPath, cookie };
}

describe("eg040's document visibility", () => {
  it('shows each signer only the documents not excluded for them; the carbon copy sees all', async () => {
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: eg040Envelope(true) });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;

    expect(await visibility(envelopeId, '1')).toEqual({ '1': 'true', '2': 'false', '3': 'false' });
    expect(await visibility(envelopeId, '2')).toEqual({ '1': 'false', '2': 'true', '3': 'true' });
    expect(await visibility(envelopeId, '3')).toEqual({ '1': 'true', '2': 'true', '3': 'true' });

    // Signer 1's signing page lists the order acknowledgement only, and will not serve the battle plan.
    const first = await openSigningLink('visible-1@example.com');
    expect(first.page).toContain('Order acknowledgement');
    expect(first.page).not.toContain('Battle Plan');
    expect(first.page).not.toContain('Lorem Ipsum');
    const hidden = await sandboxFetch(new URL(`${first.sessionPath}/documents/2`, sandbox.origin), {
      headers: { cookie: first.cookie },
    });
    expect(hidden.status).toBe(404);
    const shown = await sandboxFetch(new URL(`${first.sessionPath}/documents/1`, sandbox.origin), {
      headers: { cookie: first.cookie },
    });
    expect(shown.status).toBe(200);
  });

  it('shows everyone everything when the envelope does not enforce signer visibility', async () => {
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: eg040Envelope(false) });
    expect(created.status).toBe(201);
    expect(await visibility(created.json.envelopeId as string, '1')).toEqual({ '1': 'true', '2': 'true', '3': 'true' });
  });
});
