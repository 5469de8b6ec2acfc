import { parse } from 'csv-parse/sync';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import { binPath, repoRoot, runCli } from '../helpers/run-cli.js';
import {
  keptPage,
  releaseBrowser,
  sharedBrowser,
  type KeptPage,
  returnedEvent,
  startReturnServer,
  waitForDocuments,
} from '../helpers/browser.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

// End to end: the real sandbox, `signrun run` into an output folder, the real
// `signrun links serve` process, and Debian's chromium opening the links.

let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let outDir: string;
let links: ChildProcess;
let origin: string;
// One page for the file (issue 38); a second page in its context where two are open at once.
let kept: KeptPage;

/** Starts `signrun links serve` and waits for its ready line. */
function serveLinks(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; origin: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, 'links', 'serve', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /^links listening on (http:\/\/\S+)$/m.exec(stdout);
      if (m?.[1]) resolve({ child, origin: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`links serve exited ${code}: ${stderr}`)));
  });
}

const job = (returnUrl: string) => `version: 1
job: links-e2e
defaults:
  emailSubject: Please sign
  returnUrl: ${returnUrl}
envelopes:
  - key: offer-ada
    status: sent
    documents: [{ name: offer.pdf, file: offer.pdf }]
    recipients:
      - name: Ada Martin
        email: ada.martin@example.com
        clientUserId: emp-0001
        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]
  - key: offer-bob
    status: sent
    documents: [{ name: offer.pdf, file: offer.pdf }]
    recipients:
      - { name: Bob Stone, email: bob.stone@example.com, clientUserId: emp-0002 }
`;

async function signing(key: string): Promise<SigningRecord> {
  return JSON.parse(await readFile(path.join(outDir, 'links-e2e', key, 'signing.json'), 'utf8')) as SigningRecord;
}

async function openings(key: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(path.join(outDir, 'links-e2e', key, 'link-openings.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Opens the link and returns where its 303 pointed (the signing address). */
async function open(page: Page, link: string): Promise<string | undefined> {
  let location: string | undefined;
  const onResponse = (r: { url(): string; status(): number; headers(): Record<string, string> }) => {
    if (r.url() === link && r.status() === 303) location = r.headers()['location'];
  };
  page.on('response', onResponse);
  await page.goto(link);
  page.off('response', onResponse);
  return location;
}

beforeAll(async () => {
  [sandbox, browser, back] = await Promise.all([
    startSandbox({ port: 0, quiet: true }),
    sharedBrowser(),
    startReturnServer(),
  ]);
  kept = await keptPage(browser);
  const jobs = await tempDir('signrun-links-jobs-');
  outDir = await tempDir('signrun-links-out-');
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(jobs, 'offer.pdf'));
  await writeFile(path.join(jobs, 'links.yaml'), job(back.url));
  const ran = await runCli(['run', jobs, '--out', outDir], { env: sandboxEnv(sandbox) });
  if (ran.code !== 0) throw new Error(`run failed: ${ran.stdout}${ran.stderr}`);
  ({ child: links, origin } = await serveLinks(['--out', outDir, '--port', '0'], sandboxEnv(sandbox)));
}, 120_000);
afterAll(async () => {
  links?.kill('SIGTERM');
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

describe('signrun links serve', () => {
  it('gives every embedded recipient a stable, unguessable link in signing.json, kept 0600 in links.json', async () => {
    const s = await signing('offer-ada');
    const link = s.recipients[0]?.link ?? '';
    expect(link).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/l/[A-Za-z0-9_-]{43}$`));
    const stored = path.join(outDir, 'links-e2e/offer-ada/links.json');
    expect((await stat(stored)).mode & 0o777).toBe(0o600);
    const listed = await runCli(['links', 'list', '--out', outDir, '--base-url', origin]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`links-e2e/offer-ada emp-0001 ${link}`);
    // Listing again keeps the same token.
    expect((await signing('offer-ada')).recipients[0]?.link).toBe(link);
    // As a CSV for a mail merge: a header, then one row per embedded recipient with the same link.
    const csv = await runCli(['links', 'list', '--out', outDir, '--base-url', origin, '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parse<Record<string, string>>(csv.stdout, { columns: true });
    expect(rows.find((r) => r['key'] === 'offer-ada')).toMatchObject({
      job: 'links-e2e',
      clientUserId: 'emp-0001',
      name: 'Ada Martin',
      email: 'ada.martin@example.com',
      link,
    });
    expect(Object.keys(rows[0]!)).toEqual(['job', 'key', 'recipientId', 'clientUserId', 'name', 'email', 'link']);
  });

  it('opened twice, one link gives two different working signing addresses; signing through the second completes', async () => {
    const link = (await signing('offer-ada')).recipients[0]?.link ?? '';
    const first = { page: await kept.use(), errors: kept.errors };
    const second = await kept.another();
    try {
      const a = await open(first.page, link);
      await waitForDocuments(first.page);
      const b = await open(second.page, link);
      await waitForDocuments(second.page);
      expect(a).toMatch(/\/signing\/[^/]+$/);
      expect(b).toMatch(/\/signing\/[^/]+$/);
      expect(a).not.toBe(b);
      const tab = second.page.getByRole('button', { name: 'Sign here' }).first();
      await tab.click();
      await second.page.getByRole('button', { name: 'Finish', exact: true }).click();
      expect(await returnedEvent(second.page, back.url)).toBe('signing_complete');
      expect([...first.errors, ...second.errors]).toEqual([]);

      // Now completed: the same link explains instead of failing.
      // goto resolves once the page is loaded: the page is the server's answer, no script fills it in.
      await first.page.goto(link);
      expect(await first.page.locator('h1').textContent()).toBe('This document has been signed');
      const log = await openings('offer-ada');
      expect(log.map((o) => o['outcome'])).toEqual(['redirected', 'redirected', 'settled']);
      expect(log[2]?.['status']).toBe('completed');
      // No signing address, token or client address in the log.
      const raw = await readFile(path.join(outDir, 'links-e2e/offer-ada/link-openings.jsonl'), 'utf8');
      expect(raw).not.toContain('/signing/');
      expect(raw).not.toContain(link.split('/l/')[1]);
    } finally {
      await second.page.close();
    }
  });

  it('an envelope recorded as voided (by sync) gets a page that says so', async () => {
    const file = path.join(outDir, 'links-e2e/offer-bob/envelope.json');
    const envelope = JSON.parse(await readFile(file, 'utf8')) as EnvelopeRecord;
    await writeFile(file, JSON.stringify({ ...envelope, status: 'voided' }));
    const link = (await signing('offer-bob')).recipients[0]?.link ?? '';
    const page = await kept.use();
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('This envelope was withdrawn');
    expect(kept.errors).toEqual([]);
    expect((await openings('offer-bob')).at(-1)).toMatchObject({ outcome: 'settled', status: 'voided' });
  });

  it('an unknown or malformed token is a 404 page', async () => {
    expect((await fetch(`${origin}/l/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${origin}/l/../../etc`)).status).toBe(404);
  });
});
