import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Debian's chromium driven by playwright-core (.ci/run installs the package).
 * `launch()` gives every browser a fresh temporary profile (user-data-dir),
 * deleted on close, so no state leaks between test files.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * One chromium for the whole vitest worker (issue 38): the e2e project runs
 * its files without isolation, so this module, and the browser it holds,
 * lives from one browser file to the next. Launching chromium cost each file
 * about a second of CPU and more of wall time. Files stay apart through
 * their own contexts (`newPage`: cookies, storage, viewport), closed by
 * {@link releaseBrowser}. The browser is closed when the worker is torn
 * down (see {@link closeAtWorkerTeardown}).
 */
export function sharedBrowser(): Promise<Browser> {
  shared ??= launchBrowser().then(
    (browser) => {
      browser.once('disconnected', () => (shared = undefined));
      closeAtWorkerTeardown(() => browser.close());
      return browser;
    },
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

/**
 * Runs `close` when vitest tears the worker down, after its last file: the
 * worker state's cleanup listeners, which vitest awaits before it stops the
 * worker (vitest has no public per-worker hook). Closed that way, chromium
 * exits and is waited for, so its CPU time is counted with the worker's and
 * its temporary profile is deleted. Were that state missing (another vitest),
 * playwright's own SIGTERM and exit handlers still kill chromium and delete
 * the profile when the worker ends.
 */
function closeAtWorkerTeardown(close: () => Promise<void>): void {
  type WorkerState = { onCleanup?: (listener: () => Promise<void>) => void };
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  state?.onCleanup?.(close);
}

/** A file's afterAll with {@link sharedBrowser}: closes every context the file left open, keeps the browser. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}

/** Desktop and phone viewports the screenshots are taken at. */
export const viewports = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** A fresh context (its own cookies) with a page at the given viewport; console errors collected. */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = viewports.desktop,
  locale = 'en-GB',
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale, deviceScaleFactor: 1 });
  const { page, errors } = await pageWithErrors(context);
  return { context, page, errors };
}

/** A new page in the context, its console errors and uncaught exceptions collected. */
async function pageWithErrors(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`);
  });
  return { page, errors };
}

/**
 * The client's return address: a tiny server on 127.0.0.1:0 that answers
 * every GET with a short page and records the `event` it was sent back with.
 */
export async function startReturnServer(): Promise<{ url: string; events: string[]; close: () => Promise<void> }> {
  const events: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    events.push(url.searchParams.get('event') ?? '');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Back at the client</title><p>returned</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/signing-done`,
    events,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Waits until the page is back at the return address and returns the `event` it carries. */
export async function returnedEvent(page: Page, returnUrl: string, timeoutMs = 15_000): Promise<string | null> {
  await page.waitForURL((u) => u.toString().startsWith(returnUrl), { timeout: timeoutMs });
  return new URL(page.url()).searchParams.get('event');
}

/** The page's full width in CSS pixels (wider than the viewport = sideways scrolling). */
export function scrollWidth(page: Page): Promise<number> {
  type Doc = { document: { documentElement: { scrollWidth: number } } };
  return page.evaluate(() => (globalThis as unknown as Doc).document.documentElement.scrollWidth);
}

/** Waits for pdf.js to have drawn every page of every document (the page script sets data-ready). */
export async function waitForDocuments(page: Page): Promise<void> {
  // Locators, not string evaluation: the page's CSP forbids eval (as it should).
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 20_000 });
  const state = await page.getAttribute('html', 'data-ready');
  if (state !== 'true') throw new Error(`the signing page failed to draw the documents (data-ready=${state})`);
}

/** Selects every "Sign here" field by keyboard (Tab focus + Enter), then Finish. */
export async function signAllTabs(
  page: Page,
  buttonName = 'Sign here',
  finish = 'Finish',
  initialName = 'Initial here',
): Promise<void> {
  const tabs = page.getByRole('button', { name: buttonName });
  // The page may still be drawing its documents: wait for the first field before counting.
  await tabs.first().waitFor();
  const count = await tabs.count();
  expect(count).toBeGreaterThan(0);
  await pressEach(page, buttonName, count);
  // Initial boxes are selected like signatures (issue 35); a page may have none.
  await pressEach(page, initialName, await page.getByRole('button', { name: initialName }).count());
  await page.getByRole('button', { name: finish, exact: true }).click();
}

/** Selects `count` fields named `name`, each the first still unselected, and waits until none is left. */
async function pressEach(page: Page, name: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    // The first remaining unsigned one: selected fields are renamed to the signature or the initials.
    const tab = page.getByRole('button', { name }).first();
    await tab.focus();
    await page.keyboard.press('Enter');
  }
  // Playwright waits on the page itself (no polling interval of ours, no 1 s cut-off).
  if (count > 0) await page.getByRole('button', { name }).first().waitFor({ state: 'detached' });
}

/** A page a whole test file reuses: see {@link keptPage}. */
export interface KeptPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions since the last {@link KeptPage.use}. */
  errors: string[];
  /** The page at this viewport, its errors cleared: what a test starts from. */
  use(viewport?: { width: number; height: number }): Promise<Page>;
  /** A second page in the same context (two open at once), errors collected; the test closes it. */
  another(): Promise<{ page: Page; errors: string[] }>;
}

/**
 * One context and page for a whole test file (issue 38), where the tests do
 * not depend on a fresh one: each test navigates it to its own signing
 * address (session cookies are scoped to their session's path, so one
 * signer's cookie is never sent for another's page). A fresh context costs a
 * renderer process and an empty HTTP cache, so pdf.js (1.7 MB, revalidated by
 * ETag) was fetched and compiled again for every test; a kept page pays that
 * once per file. Closed by {@link releaseBrowser} in the file's afterAll,
 * before its servers close (the context's keep-alive connections end with it).
 */
export async function keptPage(browser: Browser, locale = 'en-GB'): Promise<KeptPage> {
  const { context, page, errors } = await newPage(browser, viewports.desktop, locale);
  return {
    context,
    page,
    errors,
    async use(viewport = viewports.desktop) {
      await page.setViewportSize(viewport);
      errors.length = 0;
      return page;
    },
    another: () => pageWithErrors(context),
  };
}
