import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { keptPage, releaseBrowser, sharedBrowser, startReturnServer, type KeptPage } from '../helpers/browser.js';
import { minimalDocx } from '../helpers/minimal-docx.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { sandboxApi } from '../signing/sandbox-api.js';

// Embedded sending as DocuSign's eg011 (code-examples-node,
// lib/eSignature/examples/embeddedSending.js) does it: a draft made by its
// makeEnvelope, a sender view asked with its makeSenderViewRequest (bodies
// as the SDK sends them), and the sender reviewing and sending it in Chromium.

let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let api: ReturnType<typeof sandboxApi>;
// One page for the file (issue 38): each test opens its own view's one-time address in it.
let kept: KeptPage;

beforeAll(async () => {
  [sandbox, browser, back] = await Promise.all([startSandbox({ port: 0 }), sharedBrowser(), startReturnServer()]);
  api = sandboxApi(sandbox.rootUrl);
  kept = await keptPage(browser);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

/** eg011's makeEnvelope(args) with status 'created', as JSON. */
async function eg011Draft(): Promise<string> {
  const document1 = `<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body>
    <h1>World Wide Corp</h1><h4>Ordered by Ada Lovelace</h4><p>Email: ada@example.com</p>
    <p>Copy to: Charles Babbage, charles@example.com</p>
    <h3>Agreed: <span style="color:white;">**signature_1**/</span></h3></body></html>`;
  return api.createEnvelope({
    emailSubject: 'Please sign this document set',
    documents: [
      {
        documentBase64: Buffer.from(document1).toString('base64'),
        name: 'Order acknowledgement',
        fileExtension: 'html',
        documentId: '1',
      },
      {
        documentBase64: minimalDocx([{ text: 'Battle plan' }, { text: '/sn1/' }]).toString('base64'),
        name: 'Battle Plan',
        fileExtension: 'docx',
        documentId: '2',
      },
      {
        documentBase64: Buffer.from(await samplePdf('Lorem ipsum /sn1/', 1)).toString('base64'),
        name: 'Lorem Ipsum',
        fileExtension: 'pdf',
        documentId: '3',
      },
    ],
    recipients: {
      signers: [
        {
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          recipientId: '1',
          routingOrder: '1',
          tabs: {
            signHereTabs: [
              { anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
              { anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
            ],
          },
        },
      ],
      carbonCopies: [{ email: 'charles@example.com', name: 'Charles Babbage', routingOrder: '2', recipientId: '2' }],
    },
    status: 'created',
  });
}

/** eg011's makeSenderViewRequest(args), startingView 'tagging'. */
const senderViewRequest = (returnUrl: string) => ({
  returnUrl,
  viewAccess: 'envelope',
  settings: {
    startingScreen: 'tagging',
    sendButtonAction: 'send',
    showBackButton: 'false',
    backButtonAction: 'previousPage',
    showHeaderActions: 'false',
    showDiscardAction: 'false',
    lockToken: '',
    recipientSettings: { showEditRecipients: 'false', showContactsList: 'false' },
    documentSettings: { showEditDocuments: 'false', showEditDocumentVisibility: 'false', showEditPages: 'false' },
    taggerSettings: { paletteSections: 'default', paletteDefault: 'custom' },
    templateSettings: { showMatchingTemplatesPrompt: 'true' },
  },
});

async function senderView(envelopeId: string): Promise<string> {
  const r = await api.call<{ url: string }>(
    'POST',
    `/envelopes/${envelopeId}/views/sender`,
    senderViewRequest(back.url),
  );
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.url;
}

describe('sender view (embedded sending)', () => {
  it('shows the draft for review and sends it: back at the client with event=Send, the signer notified', async () => {
    const envelopeId = await eg011Draft();
    const url = await senderView(envelopeId);
    const page = await kept.use();
    const { context, errors } = kept;
    await page.goto(url);
    await page.getByRole('heading', { name: 'Review and send: Please sign this document set' }).waitFor();
    const rows = page.locator('table.list tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain('Ada Lovelace');
    expect(await rows.nth(1).innerText()).toContain('Carbon copy');
    expect(await page.getByRole('link', { name: 'Battle Plan' }).count()).toBe(1);
    const pdf = await context.request.get(
      await page
        .getByRole('link', { name: 'Lorem Ipsum' })
        .getAttribute('href')
        .then((h) => new URL(h!, page.url()).toString()),
    );
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL((u) => u.toString().startsWith(back.url));
    expect(new URL(page.url()).searchParams.get('event')).toBe('Send');
    expect(errors).toEqual([]);
    expect(await api.envelopeStatus(envelopeId)).toBe('sent');
    const outbox = (await (await fetch(`${sandbox.origin}/sandbox/outbox?envelopeId=${envelopeId}`)).json()) as {
      messages: { to: string }[];
    };
    expect(outbox.messages.map((m) => m.to)).toContain('ada@example.com');

    // Single use: the address opens nothing a second time.
    const again = await fetch(url, { redirect: 'manual' });
    expect(again.status).toBe(410);
  });

  it('saves and closes without sending (event=Save); refuses a view of an envelope already sent', async () => {
    const envelopeId = await eg011Draft();
    const page = await kept.use();
    await page.goto(await senderView(envelopeId));
    await page.getByRole('button', { name: 'Save and close' }).click();
    await page.waitForURL((u) => u.toString().startsWith(back.url));
    expect(new URL(page.url()).searchParams.get('event')).toBe('Save');
    expect(await api.envelopeStatus(envelopeId)).toBe('created');
    await api.call('PUT', `/envelopes/${envelopeId}`, { status: 'sent' });
    const refused = await api.call<{ errorCode: string }>(
      'POST',
      `/envelopes/${envelopeId}/views/sender`,
      senderViewRequest(back.url),
    );
    expect(refused.json.errorCode).toBe('ENVELOPE_INVALID_STATUS');
  });

  it('refuses a send whose form did not come from the page (no CSRF token)', async () => {
    const envelopeId = await eg011Draft();
    const page = await kept.use();
    const { context } = kept;
    await page.goto(await senderView(envelopeId));
    const action = await page.locator('form[action$="/send"]').getAttribute('action');
    const forged = await context.request.post(new URL(action!, page.url()).toString(), {
      form: { csrfToken: 'forged' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(await api.envelopeStatus(envelopeId)).toBe('created');
  });
});
