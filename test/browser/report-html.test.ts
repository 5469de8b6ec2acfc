import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptPage, releaseBrowser, sharedBrowser, scrollWidth, viewports, type KeptPage } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { examplesCopy } from '../helpers/examples-copy.js';

// report.html as people see it: written by a real `signrun run` of the
// examples (in-process sandbox), opened from disk in Debian's chromium at
// desktop and phone width, with every network request refused and counted.

const screenshots = process.env['SIGNRUN_UPDATE_SCREENSHOTS']
  ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
  : `${mkdtempSync(path.join(tmpdir(), 'signrun-screenshots-'))}/`;

let browser: Browser;
let reportUrl: string;
// One page for both widths (issue 38): the report is a file, opened afresh at each width; every request
// that is not a file is refused and counted, from the first page load to the last.
let kept: KeptPage;
const outside: string[] = [];

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  const outDir = mkdtempSync(path.join(tmpdir(), 'signrun-report-html-'));
  // Every job of the examples, three rows of each CSV (issue 38: the report's chart, tables and widths are
  // the same with 3 rows as with 20); the docs' screenshots keep the whole examples.
  const examples = examplesCopy(process.env['SIGNRUN_UPDATE_SCREENSHOTS'] ? undefined : 3);
  const [ran, launched] = await Promise.all([runCli(['run', examples, '--out', outDir]), sharedBrowser()]);
  browser = launched;
  if (ran.code !== 0) throw new Error(`run failed: ${ran.stdout}${ran.stderr}`);
  reportUrl = pathToFileURL(path.join(outDir, 'report.html')).toString();
  kept = await keptPage(browser);
  await kept.context.route(
    (url) => url.protocol !== 'file:',
    async (route) => {
      outside.push(route.request().url());
      await route.abort();
    },
  );
}, 120_000);
afterAll(async () => {
  await releaseBrowser(browser);
});

describe('report.html in Chromium', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    it(`renders at ${viewport.width} px with its chart, offline, without console errors`, async () => {
      const page = await kept.use(viewport);
      const errors = kept.errors;
      await page.goto(reportUrl);
      expect(await page.locator('h1').textContent()).toMatch(/^signrun run succeeded/);
      const chart = page.locator('svg.chart');
      expect(await chart.count()).toBe(1);
      expect(await chart.locator('rect').count()).toBeGreaterThan(0);
      const box = await chart.boundingBox();
      expect(box?.width).toBeGreaterThan(Math.min(viewport.width * 0.8, 700));
      expect(box?.width).toBeLessThanOrEqual(viewport.width);
      // Jobs of the examples, each with its table.
      expect(await page.locator('section h3').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining('offer-jean-francais-2026')]),
      );
      // Readable at phone width: no sideways scrolling of the page itself.
      expect(await scrollWidth(page)).toBeLessThanOrEqual(viewport.width);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      const file = `${screenshots}report-html-${name}.png`;
      await page.screenshot({ path: file });
      expect(readFileSync(file).subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    });
  }
});
