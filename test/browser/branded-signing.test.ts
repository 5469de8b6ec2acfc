import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { releaseBrowser, sharedBrowser, newPage, startReturnServer, waitForDocuments } from '../helpers/browser.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { accountId, sandboxApi, seedAuth, signer } from '../signing/sandbox-api.js';

// An envelope sent with a brand (brandId) shows the brand on its signing
// page in Chromium: the brand's company and primary logo in the bar, its
// header and button colours; an envelope without one keeps the sandbox's look.

let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let api: ReturnType<typeof sandboxApi>;
/** A 1×1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  [sandbox, browser, back] = await Promise.all([startSandbox({ port: 0 }), sharedBrowser(), startReturnServer()]);
  api = sandboxApi(sandbox.rootUrl);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

async function signingUrl(brandId?: string): Promise<string> {
  const envelopeId = await api.createEnvelope({
    emailSubject: 'Branded offer',
    status: 'sent',
    ...(brandId === undefined ? {} : { brandId }),
    documents: [
      {
        documentId: '1',
        name: 'Offer.pdf',
        fileExtension: 'pdf',
        documentBase64: Buffer.from(await samplePdf('the offer', 1)).toString('base64'),
      },
    ],
    recipients: {
      signers: [
        signer('1', 'Grace Hopper', '1', [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '600' }]),
      ],
    },
  });
  return api.signingUrl(
    envelopeId,
    { email: 'grace.hopper@example.com', userName: 'Grace Hopper', clientUserId: 'client-1' },
    back.url,
  );
}

/** An element's computed background colour, evaluated in the page (the tests' TypeScript has no DOM types). */
const background = (e: unknown): string =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(e)
    .backgroundColor;

describe('branded signing page', () => {
  it("shows the brand's company, logo and colours; an unbranded envelope keeps the sandbox's bar", async () => {
    const created = await api.call<{ brands: { brandId: string }[] }>('POST', '/brands', {
      brandName: 'Acme signing',
      brandCompany: 'Acme France',
      colors: [
        { name: 'headerBackground', value: '#7a1f5c' },
        { name: 'headerText', value: '#ffffff' },
        { name: 'buttonPrimaryBackground', value: '#005a32' },
      ],
    });
    expect(created.status).toBe(201);
    const brandId = created.json.brands[0]!.brandId;
    const logo = await fetch(`${sandbox.rootUrl}/accounts/${accountId}/brands/${brandId}/logos/primary`, {
      method: 'PUT',
      headers: { 'x-docusign-authentication': seedAuth, 'content-type': 'image/png' },
      body: png,
    });
    expect(logo.status).toBe(200);

    const { context, page, errors } = await newPage(browser);
    try {
      await page.goto(await signingUrl(brandId));
      await waitForDocuments(page);
      const bar = page.locator('header.bar');
      // page.goto waited for the load event: the brand's stylesheet is applied.
      expect(await bar.evaluate(background)).toBe('rgb(122, 31, 92)');
      expect(await bar.innerText()).toContain('Acme France');
      const img = page.locator('img.brand-logo');
      expect(
        await img.evaluate((e) => {
          const image = e as unknown as { complete: boolean; naturalWidth: number };
          return image.complete ? image.naturalWidth : 0;
        }),
      ).toBe(1);
      expect(await img.getAttribute('alt')).toBe('Acme France logo');
      const finish = page.locator('button.primary').first();
      expect(await finish.evaluate(background)).toBe('rgb(0, 90, 50)');
      expect(errors).toEqual([]);

      await page.goto(await signingUrl());
      await waitForDocuments(page);
      expect(await page.locator('header.bar').innerText()).toBe('signrun sandbox');
      expect(await page.locator('img.brand-logo').count()).toBe(0);
      expect(await page.locator('header.bar').evaluate(background)).toBe('rgb(22, 50, 92)');
    } finally {
      await context.close();
    }
  });
});
