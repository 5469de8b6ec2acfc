import type { Browser } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import {
  releaseBrowser,
  sharedBrowser,
  newPage,
  returnedEvent,
  startReturnServer,
  viewports,
  waitForDocuments,
} from '../helpers/browser.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { sandboxApi } from '../signing/sandbox-api.js';

// A person fills the fields of an offer letter in Chromium (issue 19): types
// a text, ticks a box, picks a list item, sees the prefilled salary locked;
// the stamped PDF and form_data hold what they entered.

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

async function offerLetter(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Annual salary: /salary/', { x: 72, y: 640, size: 12, font });
  page.drawText('Preferred name: /nick/', { x: 72, y: 610, size: 12, font });
  page.drawText('Relocation: /reloc/   Office: /office/', { x: 72, y: 580, size: 12, font });
  page.drawText('Signature: /sig1/', { x: 72, y: 300, size: 12, font });
  return Buffer.from(await doc.save()).toString('base64');
}

describe('the signing page’s fields in a real browser', () => {
  it('a person types a text, ticks a box, picks a list item and sees the prefilled salary locked', async () => {
    const at = (anchorString: string, extra: Record<string, unknown> = {}) => ({
      anchorString,
      anchorXOffset: '110',
      anchorYOffset: '-4',
      ...extra,
    });
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Your offer',
      status: 'sent',
      documents: [{ documentId: '1', name: 'Offer.pdf', fileExtension: 'pdf', documentBase64: await offerLetter() }],
      recipients: {
        signers: [
          {
            recipientId: '1',
            name: 'Alice Martin',
            email: 'alice.martin@example.com',
            clientUserId: 'client-1',
            tabs: {
              signHereTabs: [at('/sig1/', { anchorXOffset: '0', anchorYOffset: '12' })],
              textTabs: [
                at('/salary/', { tabLabel: 'Salary', value: '85000', locked: 'true' }),
                at('/nick/', { tabLabel: 'Preferred name' }),
              ],
              checkboxTabs: [at('/reloc/', { tabLabel: 'Relocation', anchorXOffset: '70' })],
              listTabs: [
                at('/office/', {
                  tabLabel: 'Office',
                  listItems: [
                    { text: 'Boston office', value: 'BOS' },
                    { text: 'Lisbon office', value: 'LIS' },
                  ],
                }),
              ],
            },
          },
        ],
      },
    });
    const { page, errors } = await newPage(browser, viewports.desktop);
    await page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
        back.url,
      ),
    );
    await waitForDocuments(page);

    const salary = page.getByLabel('Salary');
    expect(await salary.inputValue()).toBe('85000');
    expect(await salary.isEditable()).toBe(false);
    await page.getByLabel('Preferred name').fill('Ally');
    await page.getByLabel('Relocation').check();
    await page.getByLabel('Office').selectOption({ label: 'Lisbon office' });

    const sign = page.getByRole('button', { name: 'Sign here' }).first();
    await sign.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign here' }).first().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Finish', exact: true }).click();
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    expect(errors).toEqual([]);

    const form = await api.call<{ formData: { name: string; value: string }[] }>(
      'GET',
      `/envelopes/${envelopeId}/form_data`,
    );
    expect(form.json.formData).toEqual([
      { name: 'Salary', value: '85000' },
      { name: 'Preferred name', value: 'Ally' },
      { name: 'Relocation', value: 'X' },
      { name: 'Office', value: 'LIS', listSelectedValue: 'Lisbon office' },
    ]);
    const text = (await tool('pdftotext', ['-layout', tempPdf(await api.document(envelopeId, '1')), '-'])).out;
    for (const value of ['85000', 'Ally', 'Lisbon office', 'Alice Martin']) expect(text).toContain(value);
  });
});
