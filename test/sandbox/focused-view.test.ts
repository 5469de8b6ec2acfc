import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { releaseBrowser, sharedBrowser, newPage } from '../helpers/browser.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf } from './helpers/api.js';

// v2.1's recipient view with frameAncestors (DocuSign's focused view): the
// app named there may embed the signing page in an iframe; other sites may not.
let sandbox: RunningSandbox;
let browser: Browser;
let app: Server;
let appOrigin: string;
let baseUrl: string;
let frameSrc = '';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  baseUrl = (await login(`${sandbox.origin}/restapi/v2.1`)).baseUrl;
  // The integrating app: one page that frames the signing address it is given.
  app = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>App</title><h1>App</h1><iframe id="signing" src="${frameSrc}" width="900" height="700"></iframe>`,
      );
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  browser = await sharedBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await new Promise<void>((r) => app.close(() => r()));
  await sandbox.close();
});

async function signingUrl(extra: Record<string, unknown>): Promise<string> {
  const created = await call(`${baseUrl}/envelopes`, {
    headers: authHeader(),
    body: documentEnvelope(await makePdf(1)),
  });
  const view = await call(`${baseUrl}/envelopes/${created.json.envelopeId}/views/recipient`, {
    headers: authHeader(),
    body: {
      userName: 'Jean Français',
      email: 'jean@example.com',
      clientUserId: 'emp-1',
      returnUrl: `${appOrigin}/done`,
      authenticationMethod: 'none',
      ...extra,
    },
  });
  expect(view.status, JSON.stringify(view.json)).toBe(201);
  return view.json.url as string;
}

/** Opens the app page framing `url`; the frame's final address once loaded (chrome-error:… when the browser refused it). */
async function framedAddress(url: string): Promise<string> {
  frameSrc = url;
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${appOrigin}/`);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('no iframe');
    await frame.waitForLoadState('load');
    const address = frame.url();
    if (address.startsWith(sandbox.origin)) await frame.getByText('Jean Français').first().waitFor();
    return address;
  } finally {
    await context.close();
  }
}

describe('focused view: frameAncestors', () => {
  it('lets the named app embed the signing page (CSP frame-ancestors), in Chromium', async () => {
    const url = await signingUrl({ frameAncestors: [appOrigin], messageOrigins: [appOrigin] });
    expect(await framedAddress(url)).toMatch(new RegExp(`^${sandbox.origin}/signing/s/`));
  });

  it('keeps other sites out: without frameAncestors the browser refuses to frame the page', async () => {
    const url = await signingUrl({});
    expect(await framedAddress(url)).toMatch(/^chrome-error:/);
  });

  it('refuses what is not an origin, and http other than loopback (DocuSign asks https)', async () => {
    const created = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: documentEnvelope(await makePdf(1)),
    });
    for (const frameAncestors of [
      ['https://app.example/path'],
      ['http://app.example'],
      ['https://a.example; script-src *'],
      'https://a.example',
    ]) {
      expectApiError(
        await call(`${baseUrl}/envelopes/${created.json.envelopeId}/views/recipient`, {
          headers: authHeader(),
          body: {
            userName: 'Jean Français',
            email: 'jean@example.com',
            clientUserId: 'emp-1',
            returnUrl: 'https://a.example/done',
            frameAncestors,
          },
        }),
        400,
        'INVALID_REQUEST_PARAMETER',
      );
    }
  });
});
