import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import {
  keptPage,
  releaseBrowser,
  sharedBrowser,
  type KeptPage,
  returnedEvent,
  scrollWidth,
  signAllTabs,
  startReturnServer,
  viewports,
  waitForDocuments,
} from '../helpers/browser.js';
import { samplePdf, tempPdf, tool, wordsOnPage } from '../signing/pdf-tools.js';
import { sandboxApi, signer, templateId } from '../signing/sandbox-api.js';

// End-to-end: the real sandbox on 127.0.0.1:0, Debian's chromium, a return
// address server. Each scenario ends on the return address with its `event`,
// then statuses come from the API and the downloaded PDFs are checked with
// poppler (pdftotext for the stamp, pdfsig for the seal).

// The screenshots of the docs are refreshed on purpose (`npm run docs:screenshots`);
// otherwise they go to a temp folder, so that `npm test` leaves the tree clean
// (the stamp shows the time: every run would change them).
const screenshots = process.env['SIGNRUN_UPDATE_SCREENSHOTS']
  ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
  : `${mkdtempSync(join(tmpdir(), 'signrun-screenshots-'))}/`;
/** Saves a screenshot of the page as it is now, and checks that a PNG was written. */
async function screenshot(page: Page, name: string): Promise<void> {
  const file = `${screenshots}${name}.png`;
  await page.screenshot({ path: file });
  expect(readFileSync(file).subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
}
const sealValid = /Signature Validation: Signature is Valid\./;

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
// One page for the file (issue 38): each test opens its own signer's address in it; the scenarios do not
// depend on a fresh browser, and pdf.js is fetched and compiled once, then revalidated (304, asset-routes.ts).
let kept: KeptPage;
// The sandbox's clock, which the expired-link test moves past the links' lifetime (then puts back): the
// links expire without waiting, and without a second sandbox of their own (issue 38).
let skew = 0;
const clock = { now: () => Date.now() + skew };

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  [sandbox, browser, back] = await Promise.all([
    startSandbox({ port: 0 }, { clock }),
    sharedBrowser(),
    startReturnServer(),
  ]);
  api = sandboxApi(sandbox.rootUrl);
  kept = await keptPage(browser);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

async function pdfBase64(title: string, pages: number): Promise<string> {
  return Buffer.from(await samplePdf(title, pages)).toString('base64');
}

async function checkSealed(bytes: Buffer, names: string[]): Promise<void> {
  const path = tempPdf(bytes);
  const tampered = Buffer.from(bytes);
  const at = tampered.indexOf('/Producer');
  expect(at).toBeGreaterThan(0);
  tampered[at + 2] = tampered[at + 2] === 0x72 ? 0x52 : 0x72; // flip the case of one letter in a signed byte range
  // The four readers run at once: each is its own process, none waits on another (issue 38).
  const [text, sig, check, tamperedSig] = await Promise.all([
    tool('pdftotext', [path, '-']),
    tool('pdfsig', [path]),
    tool('qpdf', ['--check', path]),
    tool('pdfsig', [tempPdf(tampered)]),
  ]);
  for (const name of names) expect(text.out).toContain(name);
  expect(sig.out).toMatch(sealValid);
  expect(check.code).toBe(0);
  expect(tamperedSig.out).not.toMatch(sealValid);
}

describe('signing page in a real browser', () => {
  it('two signers, two documents, signed in routing order', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Supplier agreement',
      status: 'sent',
      documents: [
        {
          documentId: '1',
          name: 'Agreement.pdf',
          fileExtension: 'pdf',
          documentBase64: await pdfBase64('the agreement', 2),
        },
        { documentId: '2', name: 'Annex.pdf', fileExtension: 'pdf', documentBase64: await pdfBase64('the annex', 1) },
      ],
      recipients: {
        signers: [
          signer('1', 'Alice Martin', '1', [
            { documentId: '1', pageNumber: '2', xPosition: '72', yPosition: '600' },
            { documentId: '2', pageNumber: '1', xPosition: '72', yPosition: '500' },
          ]),
          signer('2', 'Bruno Petit', '2', [{ documentId: '1', pageNumber: '2', xPosition: '330', yPosition: '600' }]),
        ],
      },
    });
    // Bruno's turn has not come: no view for him yet.
    const early = await api.call('POST', `/envelopes/${envelopeId}/views/recipient`, {
      email: 'bruno.petit@example.com',
      userName: 'Bruno Petit',
      clientUserId: 'client-2',
      returnUrl: back.url,
    });
    expect(early.status).toBe(400);

    const alice = { page: await kept.use(viewports.desktop), errors: kept.errors };
    // The page's static assets may be kept by the browser and revalidated; the signing page itself never.
    const answer = await alice.page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
        back.url,
      ),
    );
    expect(answer?.headers()['cache-control']).toBe('no-store');
    await waitForDocuments(alice.page);
    expect(await alice.page.locator('.page canvas').count()).toBe(3);
    await alice.page.getByRole('button', { name: 'Sign here' }).first().scrollIntoViewIfNeeded();
    await screenshot(alice.page, 'signing-desktop');
    await signAllTabs(alice.page);
    expect(await returnedEvent(alice.page, back.url)).toBe('signing_complete');
    expect(alice.errors).toEqual([]);
    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'completed', '2': 'sent' });
    expect(await api.envelopeStatus(envelopeId)).toBe('delivered');

    const bruno = { page: await kept.use(viewports.phone) };
    // The second signing page of the file: pdf.js is revalidated (not sent again, its compiled code reused).
    const pdfjs = bruno.page.waitForResponse((r) => r.url().endsWith('/signing/assets/pdf.min.mjs'));
    await bruno.page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'bruno.petit@example.com', userName: 'Bruno Petit', clientUserId: 'client-2' },
        back.url,
      ),
    );
    await waitForDocuments(bruno.page);
    expect((await pdfjs).status()).toBe(304);
    await screenshot(bruno.page, 'signing-phone');
    await bruno.page.getByRole('button', { name: 'Sign here' }).first().scrollIntoViewIfNeeded();
    await screenshot(bruno.page, 'signing-phone-tab');
    // Nothing is wider than the phone: readable without sideways scrolling.
    expect(await scrollWidth(bruno.page)).toBeLessThanOrEqual(viewports.phone.width);
    await signAllTabs(bruno.page);
    expect(await returnedEvent(bruno.page, back.url)).toBe('signing_complete');

    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'completed', '2': 'completed' });
    const [one, two, completion] = await Promise.all(
      ['1', '2', 'certificate'].map((documentId) => api.document(envelopeId, documentId)),
    );
    // The certificate of completion records the browser's address and user agent.
    const [certificate] = await Promise.all([
      tool('pdftotext', [tempPdf(completion!), '-']),
      checkSealed(one!, ['Alice Martin', 'Bruno Petit']),
      checkSealed(two!, ['Alice Martin']),
    ]);
    expect(certificate.out).toMatch(/Signed \(IP 127\.0\.0\.1, agent Mozilla\/5\.0/);
  });

  it('the template envelope, employer and employee signing in parallel', async () => {
    const envelopeId = await api.createEnvelope({
      templateId,
      status: 'sent',
      templateRoles: [
        {
          roleName: 'employee',
          name: 'Jean Français',
          email: 'jean@example.com',
          clientUserId: 'emp-1',
          supportedLanguage: 'fr',
        },
        { roleName: 'employer', name: 'Maria Garcia', email: 'maria@example.com', clientUserId: 'mgr-1' },
      ],
    });
    // Two pages of one browser at once (the kept one and a second in its context).
    const employee = { page: await kept.use() };
    const employer = await kept.another();
    await employee.page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'jean@example.com', userName: 'Jean Français', clientUserId: 'emp-1' },
        back.url,
      ),
    );
    await employer.page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'maria@example.com', userName: 'Maria Garcia', clientUserId: 'mgr-1' },
        back.url,
      ),
    );
    await Promise.all([waitForDocuments(employee.page), waitForDocuments(employer.page)]);
    expect(await employee.page.getAttribute('html', 'lang')).toBe('fr');
    await screenshot(employee.page, 'signing-desktop-fr');
    // Both finish at the same moment: neither signature may be lost.
    await Promise.all([signAllTabs(employee.page, 'Signer ici', 'Terminer'), signAllTabs(employer.page)]);
    expect(await returnedEvent(employee.page, back.url)).toBe('signing_complete');
    expect(await returnedEvent(employer.page, back.url)).toBe('signing_complete');
    await employer.page.close();
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    await checkSealed(await api.document(envelopeId, '1'), ['Jean Français', 'Maria Garcia']);
  });

  it('a decline with a reason', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Non-disclosure agreement',
      status: 'sent',
      documents: [
        { documentId: '1', name: 'NDA.pdf', fileExtension: 'pdf', documentBase64: await pdfBase64('the NDA', 1) },
      ],
      recipients: {
        signers: [
          signer('1', 'Chloé Roux', '1', [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '500' }]),
        ],
      },
    });
    const page = await kept.use();
    await page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'chlo.roux@example.com', userName: 'Chloé Roux', clientUserId: 'client-1' },
        back.url,
      ),
    );
    // The decline's form and its check of the reason are the page's markup and its script, which the
    // load event waits for; the document's drawing is not waited for (issue 38): the other tests look at it.
    await page.getByText('Decline to sign').click();
    // An empty reason is refused on the page, nothing is sent.
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'reason' }).waitFor();
    await page.getByLabel('Reason for declining').fill('The notice period is wrong.');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    expect(await returnedEvent(page, back.url)).toBe('decline');
    expect(await api.envelopeStatus(envelopeId)).toBe('declined');
    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'declined' });
  });

  it('free placement by clicking on a page when the signer has no tabs', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Letter of intent',
      status: 'sent',
      documents: [
        { documentId: '1', name: 'Letter.pdf', fileExtension: 'pdf', documentBase64: await pdfBase64('the letter', 1) },
      ],
      recipients: { signers: [signer('1', 'Daniel Blanc', '1', [])] },
    });
    const page = await kept.use();
    const errors = kept.errors;
    await page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'daniel.blanc@example.com', userName: 'Daniel Blanc', clientUserId: 'client-1' },
        back.url,
      ),
    );
    await waitForDocuments(page);
    // Finishing before placing is refused on the page.
    await page.getByRole('button', { name: 'Finish', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Place your signature' }).waitFor();

    // Click at 3/4 of the width, 1/2 of the height: the box is centred there.
    const region = page.locator('.page.placing').first();
    const box = (await region.boundingBox())!;
    await region.click({ position: { x: box.width * 0.75, y: box.height * 0.5 } });
    await page.locator('.placed').first().waitFor();
    expect(await page.locator('.placed').count()).toBe(1);
    await screenshot(page, 'signing-free-placement');
    await page.getByRole('button', { name: 'Finish', exact: true }).click();
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    expect(errors).toEqual([]);

    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    const path = tempPdf(await api.document(envelopeId, '1'));
    const name = (await wordsOnPage(path, 1)).find((w) => w.word === 'Daniel');
    expect(name).toBeDefined();
    // Page 612 × 792 pt: centre (459, 396), a 180 × 48 box → left edge ≈ 369, top ≈ 372.
    expect(name!.xMin).toBeGreaterThan(369 - 10);
    expect(name!.xMin).toBeLessThan(369 + 15);
    expect(name!.yMin).toBeGreaterThan(372 - 5);
    expect(name!.yMin).toBeLessThan(372 + 48);
    expect((await tool('pdfsig', [path])).out).toMatch(sealValid);
  });

  it('keyboard only: place a signature on a page without tabs, move it, finish', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Keyboard',
      status: 'sent',
      documents: [
        { documentId: '1', name: 'Keys.pdf', fileExtension: 'pdf', documentBase64: await pdfBase64('keys', 1) },
      ],
      recipients: { signers: [signer('1', 'Farid Kaci', '1', [])] },
    });
    const page = await kept.use();
    await page.goto(
      await api.signingUrl(
        envelopeId,
        { email: 'farid.kaci@example.com', userName: 'Farid Kaci', clientUserId: 'client-1' },
        back.url,
      ),
    );
    await waitForDocuments(page);
    // Tab through the page until the labelled page region has the focus.
    const focusedRegion = page.locator('.page.placing:focus');
    expect(await page.getByRole('group', { name: /Keys\.pdf, page 1/ }).count()).toBe(1);
    for (let i = 0; i < 30 && (await focusedRegion.count()) === 0; i++) await page.keyboard.press('Tab');
    expect(await focusedRegion.count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.locator('.placed').first().waitFor();
    expect(await page.locator('.placed').count()).toBe(1);
    // The placed signature has the focus; move it 4 × 20 pt down.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowDown');
    await page.getByRole('button', { name: 'Finish', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    const word = (await wordsOnPage(tempPdf(await api.document(envelopeId, '1')), 1)).find((w) => w.word === 'Farid');
    // Centred on the page (306, 396) → box top 372, then 80 pt lower: 452.
    expect(word!.xMin).toBeGreaterThan(216 - 2);
    expect(word!.xMin).toBeLessThan(216 + 15);
    expect(word!.yMin).toBeGreaterThan(452);
    expect(word!.yMin).toBeLessThan(452 + 48);
  });

  it('an expired link explains, then sends the signer back with ttl_expired', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Expiring',
      status: 'sent',
      documents: [{ documentId: '1', name: 'x.pdf', fileExtension: 'pdf', documentBase64: await pdfBase64('x', 1) }],
      recipients: {
        signers: [
          signer('1', 'Eve Noir', '1', [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '72' }]),
        ],
      },
    });
    const url = await api.signingUrl(
      envelopeId,
      { email: 'eve.noir@example.com', userName: 'Eve Noir', clientUserId: 'client-1' },
      back.url,
    );
    // A link lives 300 s (the sandbox's default, as DocuSign's 5 minutes); the clock moves 1.6 s past that.
    skew = 301_600;
    try {
      const page = await kept.use();
      const answer = await page.goto(url);
      // Rendered by the server, no script: what the browser shows is the answer's markup, read from it
      // rather than from the page, whose refresh (3 s) may already be under way on a busy machine.
      const html = (await answer!.text()).replaceAll('&amp;', '&');
      expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]).toContain('expired');
      // The page sends the signer back by itself after 3 s (meta refresh) and at once by its link: both
      // point at the same address, and the link is followed rather than the 3 s waited out (issue 38).
      const link = page.locator('a#continue');
      const refresh = /<meta http-equiv="refresh" content="([^"]+)">/.exec(html)?.[1];
      const href = /<a href="([^"]+)" id="continue">/.exec(html)?.[1];
      expect(refresh).toBe(`3;url=${href}`);
      await link.click();
      expect(await returnedEvent(page, back.url)).toBe('ttl_expired');
      expect(await api.envelopeStatus(envelopeId)).toBe('sent');
    } finally {
      skew = 0;
    }
  });
});
