import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import {
  releaseBrowser,
  sharedBrowser,
  newPage,
  returnedEvent,
  signAllTabs,
  startReturnServer,
  waitForDocuments,
} from '../helpers/browser.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { sandboxApi, tabAt } from '../signing/sandbox-api.js';

// A signer types an amount and sees the formula tabs that name it change on
// the page as they type (computed by the sandbox's own evaluator, served to
// the page), read-only; what is stamped and reported is what they saw.

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

describe('formula tabs on the signing page', () => {
  it('follow what the signer types, read-only, and are stamped as shown', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Expenses',
      status: 'sent',
      documents: [
        {
          documentId: '1',
          name: 'Expenses.pdf',
          fileExtension: 'pdf',
          documentBase64: Buffer.from(await samplePdf('Expenses')).toString('base64'),
        },
      ],
      recipients: {
        signers: [
          {
            recipientId: '1',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            clientUserId: 'ada',
            tabs: {
              signHereTabs: [tabAt(500)],
              currencyTabs: [tabAt(100, { tabLabel: 'Amount' })],
              numberTabs: [tabAt(140, { tabLabel: 'Nights' })],
              formulaTabs: [
                tabAt(180, { tabLabel: 'Doubled', formula: '[Amount] * 2' }),
                tabAt(220, { tabLabel: 'Total', formula: '[Doubled] + [Nights] / 3', roundDecimalPlaces: '2' }),
              ],
            },
          },
        ],
      },
    });
    const { context, page, errors } = await newPage(browser);
    await page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'ada@example.com', userName: 'Ada Lovelace', clientUserId: 'ada' },
        back.url,
      ),
    );
    await waitForDocuments(page);
    const doubled = page.getByLabel('Doubled');
    const total = page.getByLabel('Total');
    expect(await doubled.isEditable()).toBe(false);
    expect(await doubled.inputValue()).toBe('0');

    await page.getByLabel('Amount').pressSequentially('50');
    expect(await doubled.inputValue()).toBe('100');
    expect(await total.inputValue()).toBe('100.00');
    await page.getByLabel('Nights').fill('2');
    expect(await total.inputValue()).toBe('100.67');
    // On the document itself, where the stamp will write it.
    expect(await page.locator('.page input.on-page[readonly]').evaluateAll((els) => els.length)).toBe(2);

    await signAllTabs(page);
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    expect(errors).toEqual([]);
    const form = await api.call<{ formData: { name: string; value: string }[] }>(
      'GET',
      `/envelopes/${envelopeId}/form_data`,
    );
    expect(form.json.formData).toEqual(
      expect.arrayContaining([
        { name: 'Doubled', value: '100' },
        { name: 'Total', value: '100.67' },
      ]),
    );
    await context.close();
  });
});
