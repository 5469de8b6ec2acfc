import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import {
  releaseBrowser,
  sharedBrowser,
  newPage,
  returnedEvent,
  startReturnServer,
  waitForDocuments,
} from '../helpers/browser.js';
import { samplePdf, tempPdf, tool } from '../signing/pdf-tools.js';
import { sandboxApi, tabAt } from '../signing/sandbox-api.js';

// A signer meets the approve, decline, view and signer-attachment tabs on the
// document, where the preview draws them (they hold no value, so the fields
// list never showed them): approve completes their part without a signature,
// decline opens the page's decline form, a required view must be opened first.

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;

beforeAll(async () => {
  [sandbox, browser, back] = await Promise.all([startSandbox({ port: 0 }), sharedBrowser(), startReturnServer()]);
  api = sandboxApi(sandbox.rootUrl);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

async function envelopeWith(tabs: Record<string, unknown>): Promise<string> {
  return api.createEnvelope({
    emailSubject: 'Policy approval',
    status: 'sent',
    documents: [
      {
        documentId: '1',
        name: 'Policy.pdf',
        fileExtension: 'pdf',
        documentBase64: Buffer.from(await samplePdf('Policy')).toString('base64'),
      },
    ],
    recipients: {
      signers: [{ recipientId: '1', name: 'Ada Approver', email: 'ada@example.com', clientUserId: 'ada', tabs }],
    },
  });
}

async function open(envelopeId: string) {
  const opened = await newPage(browser);
  await opened.page.goto(
    await api.signingUrl(
      envelopeId,
      { email: 'ada@example.com', userName: 'Ada Approver', clientUserId: 'ada' },
      back.url,
    ),
  );
  await waitForDocuments(opened.page);
  return opened;
}

describe('approve, decline, view and attachment tabs on the signing page', () => {
  it('approve completes the signer without a signature, once the required view is opened and fields filled', async () => {
    const envelopeId = await envelopeWith({
      textTabs: [tabAt(100, { tabLabel: 'Department' })],
      viewTabs: [tabAt(160, { tabLabel: 'Terms', required: 'true' })],
      signerAttachmentTabs: [tabAt(220)],
      approveTabs: [tabAt(280, { buttonText: 'I approve' })],
      declineTabs: [tabAt(340)],
    });
    const { context, page, errors } = await open(envelopeId);
    // Each button sits on the page (not only in the list), and the signer places no signature.
    for (const name of ['I approve', 'Decline', 'View'])
      expect(await page.locator('.page .on-page', { hasText: name }).count(), name).toBe(1);
    // The attachment box says honestly that nothing can be attached yet (and does not hold back Approve).
    const attachment = page.locator('.page .on-page[data-button=signerAttachment]');
    expect(await attachment.getAttribute('aria-label')).toBe('Attachment');
    expect(await attachment.getAttribute('title')).toBe(
      'Attaching a file is not supported by the signrun sandbox yet: you can finish without it.',
    );
    expect(await page.locator('.page.placing').count()).toBe(0);

    await page.getByLabel('Department').fill('Legal');
    await page.getByRole('button', { name: 'I approve' }).click();
    // The script refuses it on the click itself (no request): the alert says what is left.
    expect(await page.locator('#sign-error').textContent()).toBe('Open these documents before finishing: Terms.');
    const popup = context.waitForEvent('page');
    await page.locator('.page [data-button=view]').click();
    await (await popup).close();
    await page.getByRole('button', { name: 'I approve' }).click();
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    expect(errors).toEqual([]);

    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'completed' });
    // The department is stamped; no signature is (the adopted name appears nowhere).
    const text = (await tool('pdftotext', ['-layout', tempPdf(await api.document(envelopeId, '1')), '-'])).out;
    expect(text).toContain('Legal');
    expect(text).not.toContain('Ada Approver');
    await context.close();
  });

  it('a decline tab opens the decline form; its reason declines the envelope', async () => {
    const envelopeId = await envelopeWith({
      approveTabs: [tabAt(100)],
      declineTabs: [tabAt(160, { buttonText: 'No' })],
    });
    const { context, page, errors } = await open(envelopeId);
    await page.getByRole('button', { name: 'No', exact: true }).click();
    expect(await page.locator('details.decline').getAttribute('open')).not.toBeNull();
    expect(await page.locator('#decline-reason:focus').count()).toBe(1);
    await page.locator('#decline-reason').fill('Not my department');
    await page.getByRole('button', { name: 'No', exact: true }).click();
    expect(await returnedEvent(page, back.url)).toBe('decline');
    expect(errors).toEqual([]);
    expect(await api.envelopeStatus(envelopeId)).toBe('declined');
    await context.close();
  });
});
