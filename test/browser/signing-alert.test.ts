import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import {
  keptPage,
  releaseBrowser,
  sharedBrowser,
  type KeptPage,
  startReturnServer,
  viewports,
  waitForDocuments,
} from '../helpers/browser.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { sandboxApi, signer } from '../signing/sandbox-api.js';
import { repoRoot } from '../helpers/run-cli.js';
import { parseDotenv } from '../../src/jobs/dotenv.js';

// The signing page's words and its alert, as a signer meets them: one field
// is "the field", and pressing Finish too early shows the alert where the
// signer is looking (next to Finish), at desktop and at phone width.

let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let api: ReturnType<typeof sandboxApi>;
// One page for the file (issue 38): each test opens its own signer's address; nothing here needs a fresh browser.
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

async function signingPage(name: string, tabs: number): Promise<string> {
  const envelopeId = await api.createEnvelope({
    emailSubject: 'Offer letter',
    status: 'sent',
    documents: [
      {
        documentId: '1',
        name: 'Offer.pdf',
        fileExtension: 'pdf',
        documentBase64: Buffer.from(await samplePdf('the offer', 3)).toString('base64'),
      },
    ],
    recipients: {
      signers: [
        signer(
          '1',
          name,
          '1',
          Array.from({ length: tabs }, (_, i) => ({
            documentId: '1',
            pageNumber: String(i + 1),
            xPosition: '72',
            yPosition: '600',
          })),
        ),
      ],
    },
  });
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
  return api.signingUrl(envelopeId, { email, userName: name, clientUserId: 'client-1' }, back.url);
}

/** True when the element is entirely inside the viewport. */
async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const size = page.viewportSize();
  return !!box && !!size && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0;
}

describe('signing page words and alert', () => {
  it('one field is "the field"; several are "each of the N fields"', async () => {
    const page = await kept.use();
    // The words are the server's markup: read once the page has arrived ('commit'), not after pdf.js has
    // loaded and drawn the documents, which this test does not look at (issue 38; the tests below do).
    await page.goto(await signingPage('Ann One', 1), { waitUntil: 'commit' });
    expect(await page.locator('#placement-help').textContent()).toBe('Select the "Sign here" field, then Finish.');
    await page.goto(await signingPage('Tom Three', 3), { waitUntil: 'commit' });
    expect(await page.locator('#placement-help').textContent()).toBe(
      'Select each of the 3 "Sign here" fields, then Finish.',
    );
  });

  for (const [name, viewport] of Object.entries(viewports)) {
    it(`Finish pressed too early shows the alert in view (${name}, ${viewport.width} px)`, async () => {
      const page = await kept.use(viewport);
      await page.goto(await signingPage(`Early ${name === 'phone' ? 'Phone' : 'Desk'}`, 3));
      await waitForDocuments(page);
      const finish = page.getByRole('button', { name: 'Finish', exact: true });
      await finish.scrollIntoViewIfNeeded();
      await finish.click();
      // The alert appears when the page handles the click: wait for it, as a person would.
      const alert = page.getByRole('alert');
      await alert.filter({ hasText: 'before finishing' }).waitFor();
      expect(await alert.textContent()).toBe('Select every "Sign here" field before finishing.');
      expect(await inView(page, '#sign-error')).toBe(true);
      // Still on the page: nothing was sent.
      expect(page.url()).toContain('/signing/');
      expect(kept.errors).toEqual([]);
    });
  }

  it("the examples' returnUrl is the sandbox's own page, so a first signing ends on it", async () => {
    // The examples take it from examples/.env (SIGNRUN_RETURN_URL; the environment wins).
    const dotenv = parseDotenv(readFileSync(join(repoRoot, 'examples', '.env'), 'utf8'));
    for (const file of ['embedded-signing.yaml', 'template-contract.yaml', 'hr-renewals.yaml']) {
      const text = readFileSync(join(repoRoot, 'examples', file), 'utf8');
      const reference = /returnUrl: \$\{env\.(\w+)\}/.exec(text)?.[1] ?? '';
      const returnUrl = new URL(dotenv.get(reference) ?? '');
      expect(returnUrl.origin, file).toBe('http://127.0.0.1:8080'); // `npx signrun serve`'s default
      const page = await kept.use();
      const answer = await page.goto(`${sandbox.origin}${returnUrl.pathname}?event=signing_complete`);
      expect(answer?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toBe('Thank you');
      expect(kept.errors).toEqual([]);
    }
  });
});
