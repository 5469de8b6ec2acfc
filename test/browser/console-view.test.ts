import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { keptPage, releaseBrowser, sharedBrowser, startReturnServer, type KeptPage } from '../helpers/browser.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { accountId, sandboxApi, signer } from '../signing/sandbox-api.js';
import { authHeader, call, expectApiError } from '../sandbox/helpers/api.js';

// The console view as DocuSign's eg012 (code-examples-node,
// lib/eSignature/examples/embeddedConsole.js) asks for it — its
// makeConsoleViewRequest: returnUrl, and envelopeId when the person chose
// to start at an envelope — and a person using it in Chromium: the
// account's envelopes folder by folder, one envelope's recipients and documents.

let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let api: ReturnType<typeof sandboxApi>;
// One page for the file (issue 38): each test opens its own view's one-time address in it.
let kept: KeptPage;
let base: string;

beforeAll(async () => {
  [sandbox, browser, back] = await Promise.all([startSandbox({ port: 0 }), sharedBrowser(), startReturnServer()]);
  api = sandboxApi(sandbox.rootUrl);
  kept = await keptPage(browser);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

async function envelope(subject: string, status: 'sent' | 'created'): Promise<string> {
  return api.createEnvelope({
    emailSubject: subject,
    status,
    documents: [
      {
        documentId: '1',
        name: 'Contract.pdf',
        fileExtension: 'pdf',
        documentBase64: Buffer.from(await samplePdf(subject, 1)).toString('base64'),
      },
    ],
    recipients: {
      signers: [
        signer('1', 'Grace Hopper', '1', [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '600' }]),
      ],
    },
  });
}

/** POST …/views/console with eg012's body; the answer is checked against the Swagger (EnvelopeViews) by `call`. */
async function consoleView(body: Record<string, string>): Promise<string> {
  const r = await call(`${base}/views/console`, { method: 'POST', headers: authHeader(), body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.url as string;
}

describe('console view', () => {
  it("lists the account's envelopes, opens the one the application started at, and moves between folders", async () => {
    const first = await envelope('Lease for flat 4', 'sent');
    const chosen = await envelope('Offer for Grace', 'sent');
    const draft = await envelope('Unfinished draft', 'created');
    const page = await kept.use();
    const { context, errors } = kept;
    // startingView 'envelope': viewRequest.envelopeId is set.
    await page.goto(await consoleView({ returnUrl: back.url, envelopeId: chosen }));
    await page.getByRole('heading', { name: 'Envelopes' }).waitFor();
    expect(await page.locator('#detail-heading').innerText()).toBe('Offer for Grace');
    expect(await page.locator('#detail-status').innerText()).toBe('sent');
    expect(await page.locator('#envelope-detail tbody tr').innerText()).toContain('Grace Hopper');
    const rows = page.locator('#envelopes tbody tr');
    // Newest first; two made within one millisecond may come either way.
    const ids = await Promise.all((await rows.all()).map((row) => row.getAttribute('data-envelope-id')));
    expect([...ids].sort()).toEqual([chosen, first].sort());

    await page.getByRole('link', { name: /^Lease for flat 4/ }).click();
    await page.locator('#detail-heading', { hasText: 'Lease for flat 4' }).waitFor();
    const doc = await page.locator('#envelope-detail a', { hasText: 'Contract.pdf' }).getAttribute('href');
    const pdf = await context.request.get(new URL(doc!, page.url()).toString());
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    await page.getByRole('link', { name: /^Draft/ }).click();
    await page.locator(`tr[data-envelope-id="${draft}"]`).waitFor();
    expect(await page.locator('#envelopes tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: /^Deleted Items/ }).click();
    await page.locator('#empty').waitFor();

    await page.getByRole('link', { name: 'Back to the application' }).click();
    await page.waitForURL((u) => u.toString().startsWith(back.url));
    expect(errors).toEqual([]);
  });

  it("opens at the Sent Items folder without an envelope (eg012's startingView 'front_page'), and the address works once", async () => {
    const url = await consoleView({ returnUrl: back.url });
    const page = await kept.use();
    await page.goto(url);
    await page.locator('#envelopes').waitFor();
    expect(await page.locator('nav a[aria-current=page]').innerText()).toMatch(/^Sent Items/);
    expect(await page.locator('#envelope-detail').count()).toBe(0);
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(410);
    expectApiError(
      await call(`${base}/views/console`, {
        method: 'POST',
        headers: authHeader(),
        body: { returnUrl: back.url, envelopeId: crypto.randomUUID() },
      }),
      400,
      'ENVELOPE_DOES_NOT_EXIST',
    );
  });

  it('answers nothing to a browser without the session cookie', async () => {
    const url = await consoleView({ returnUrl: back.url });
    const opened = await fetch(url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const session = new URL(opened.headers.get('location')!, sandbox.origin).toString();
    expect((await fetch(session)).status).toBe(403);
  });
});
