import { readFile, writeFile, mkdir, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import { checkReport } from '../../src/reporters/report-schema.js';
import { releaseBrowser, sharedBrowser, newPage, returnedEvent, startReturnServer } from '../helpers/browser.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, sha256, tempDir } from '../cli/run-helpers.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { sandboxApi } from '../signing/sandbox-api.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';

// Issue 12, "Done when": three envelopes through the sandbox — one signed in
// Chromium, one declined, one left open — then `sync` records what became of
// each with at most 2 listing calls, collects the signed documents and the
// certificate once, and a following `run` exits 0.

let sandbox: RunningSandbox;
let browser: Browser;
let back: Awaited<ReturnType<typeof startReturnServer>>;
const requests: string[] = [];

beforeAll(async () => {
  [sandbox, browser, back] = await Promise.all([
    startSandbox({ port: 0, pollingRule: 'docusign', log: (line) => requests.push(line) }),
    sharedBrowser(),
    startReturnServer(),
  ]);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

async function jobFolder(returnUrl: string, job = 'offers'): Promise<string> {
  const dir = await tempDir('signrun-sync-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  const envelope = (key: string, name: string) => [
    `  - key: ${key}`,
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    '    recipients:',
    `      - name: ${name}`,
    `        email: ${key}@example.com`,
    `        clientUserId: emp-${key}`,
    '        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
  ];
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      `job: ${job}`,
      'defaults:',
      '  emailSubject: Your offer letter',
      `  returnUrl: ${returnUrl}`,
      '  status: sent',
      'envelopes:',
      ...envelope('alice', 'Alice Martin'),
      ...envelope('bruno', 'Bruno Petit'),
      ...envelope('chloe', 'Chloe Roux'),
      '',
    ].join('\n'),
  );
  return dir;
}

const listings = () => requests.filter((l) => /^GET \S*\/accounts\/:accountId\/envelopes 200/.test(l));
const downloads = () => requests.filter((l) => /^GET \S*\/documents\/:documentId 200/.test(l));

describe('signrun sync after sending', () => {
  it('records completed, declined and sent, collects the signed documents once, and run settles', async () => {
    const dir = await jobFolder(back.url);
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const sent = await runCli(['run', dir, '--out', out], { env });
    expect(sent.code, sent.stderr + sent.stdout).toBe(0);
    const url = async (key: string) =>
      JSON.parse(await readFile(path.join(out, 'offers', key, 'signing.json'), 'utf8')) as SigningRecord;

    // Alice signs in Chromium.
    const { page, context } = await newPage(browser);
    await page.goto((await url('alice')).recipients[0]!.url!);
    const tab = page.getByRole('button', { name: 'Sign here' }).first();
    await tab.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Finish', exact: true }).click();
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    await context.close();

    // Bruno declines, with a reason.
    const link = await openSigningLink((await url('bruno')).recipients[0]!.url!);
    const declined = await postForm(`${link.sessionUrl}/decline`, link.cookie, {
      reason: 'The salary is wrong.',
      csrfToken: link.csrf,
    });
    expect(declined.status).toBe(303);

    // Chloé leaves hers open.
    requests.length = 0;
    const first = await runCli(['sync', dir, '--out', out], { env });
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(listings().length).toBeGreaterThanOrEqual(1);
    expect(listings().length).toBeLessThanOrEqual(2);
    // One download for the completed envelope: its archive (document and certificate); no
    // list of its documents (the listing gave their ids and names: include=documents).
    expect(downloads().length).toBe(1);
    // Alice's document, her certificate and her form-data.json, said as collected (form data is written, not downloaded).
    expect(first.stdout).toContain('collected 3 file(s) of completed envelopes (documents, certificates, form data)');
    expect(requests.filter((l) => /\/documents 200/.test(l))).toEqual([]);
    // No request per envelope to learn its status, nor to read the completed one's form data:
    // the listing carried its recipients' tabs (include=recipients,tabs, issue 37).
    expect(requests.filter((l) => /envelopes\/:envelopeId /.test(l))).toEqual([]);
    expect(requests.filter((l) => /envelopes\/:envelopeId\/recipients /.test(l))).toEqual([]);

    const record = async (key: string) =>
      JSON.parse(await readFile(path.join(out, 'offers', key, 'envelope.json'), 'utf8')) as EnvelopeRecord;
    const alice = await record('alice');
    const bruno = await record('bruno');
    const chloe = await record('chloe');
    expect([alice.status, bruno.status, chloe.status]).toEqual(['completed', 'declined', 'sent']);
    expect(alice.recipients[0]).toMatchObject({ name: 'Alice Martin', status: 'completed' });
    expect(alice.recipients[0]?.signedAt).toBeDefined();
    expect(bruno.declinedReason).toBe('The salary is wrong.');
    expect(bruno.recipients[0]).toMatchObject({ status: 'declined', declinedReason: 'The salary is wrong.' });
    expect(chloe.recipients[0]).toMatchObject({ name: 'Chloe Roux', status: 'sent' });

    // The completed envelope's documents as the service serves them: signed, sealed, same bytes.
    const api = sandboxApi(sandbox.rootUrl);
    const doc = alice.files.find((f) => f.path.includes('/documents/'))!;
    const bytes = await readFile(path.join(out, doc.path));
    expect(sha256(bytes)).toBe(doc.sha256);
    expect(sha256(bytes)).toBe(sha256(await api.document(alice.envelopeId, '1')));
    expect((await tool('pdfsig', [tempPdf(bytes)])).out).toMatch(/Signature Validation: Signature is Valid\./);
    const certificate = alice.files.find((f) => f.path.endsWith('certificate.pdf'))!;
    const certText = (await tool('pdftotext', [path.join(out, certificate.path), '-'])).out;
    expect(certText.toLowerCase()).toContain('completed');

    // report.json: every recipient with name, status and when; valid against its schema.
    const report = await readReport(out);
    expect(checkReport(report)).toEqual([]);
    const byKey = new Map(report.envelopes.map((e) => [e.key, e]));
    expect(byKey.get('alice')).toMatchObject({ status: 'completed' });
    expect(byKey.get('bruno')).toMatchObject({ status: 'declined', declinedReason: 'The salary is wrong.' });
    expect(byKey.get('chloe')?.recipients[0]).toMatchObject({ name: 'Chloe Roux', status: 'sent' });
    expect(byKey.get('alice')?.files.map((f) => f.path)).toContain(certificate.path);
    const md = await readFile(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('Still to sign');
    expect(md).toContain('Chloe Roux');
    expect(md).not.toMatch(/\| `offers\/alice` \|/);

    // A second sync (forced past the polling rule) downloads nothing.
    requests.length = 0;
    const second = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(listings().length).toBeLessThanOrEqual(2);
    expect(downloads()).toEqual([]);
    expect(requests.filter((l) => / \S*\/documents /.test(l))).toEqual([]);

    // Without --force, the polling rule: no listing at all.
    requests.length = 0;
    const third = await runCli(['sync', dir, '--out', out], { env });
    expect(third.code).toBe(0);
    expect(listings()).toEqual([]);
    expect(third.stderr).toContain('--force');

    // status: from the state alone, no call.
    requests.length = 0;
    const status = await runCli(['status', dir, '--out', out], { env });
    expect(status.code).toBe(0);
    expect(requests).toEqual([]);
    expect(status.stdout).toMatch(/offers\/alice\s+completed/);
    expect(status.stdout).toMatch(/offers\/bruno\s+declined.*The salary is wrong/);
    expect(status.stdout).toMatch(/still to sign: Chloe Roux <chloe@example.com> sent.*; signing address valid until /);
    const asJson = await runCli(['status', dir, '--out', out, '--format', 'json'], { env });
    const parsed = JSON.parse(asJson.stdout) as { envelopes: Array<{ key: string; status: string }> };
    expect(parsed.envelopes.map((e) => [e.key, e.status])).toEqual([
      ['alice', 'completed'],
      ['bruno', 'declined'],
      ['chloe', 'sent'],
    ]);

    // A following run, once the stored signing addresses have expired: settled
    // envelopes ask for no signing view and do not fail; the open one's address
    // is refreshed only on demand (sign-url), not by the run.
    for (const key of ['alice', 'bruno', 'chloe']) {
      const file = path.join(out, 'offers', key, 'signing.json');
      const signing = JSON.parse(await readFile(file, 'utf8')) as SigningRecord;
      for (const r of signing.recipients) r.expiresAt = '2001-01-01T00:00:00.000Z';
      await writeFile(file, JSON.stringify(signing));
    }
    // The journal's view records are what a run decides from: their time has passed too.
    const journalFile = path.join(out, '.signrun', 'journal.jsonl');
    const lines = (await readFile(journalFile, 'utf8')).split('\n').map((line) => {
      if (!line.includes('"step":"view"')) return line;
      return JSON.stringify({ ...(JSON.parse(line) as object), expiresAt: '2001-01-01T00:00:00.000Z' });
    });
    await writeFile(journalFile, lines.join('\n'));
    requests.length = 0;
    const rerun = await runCli(['run', dir, '--out', out], { env });
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    expect(requests.filter((l) => l.includes('views/recipient'))).toEqual([]);
    const after = await record('alice');
    expect(after.status).toBe('completed');
    expect(after.collected).toBe(true);
    expect(after.files.find((f) => f.path === doc.path)?.sha256).toBe(doc.sha256);
    expect(rerun.stdout).toMatch(/Still to sign \(1, oldest first\)/);
    expect(rerun.stdout).toContain('offers/chloe: Chloe Roux <chloe@example.com> sent');
    // status says the stored address has expired, and how to get a fresh one.
    const later = await runCli(['status', dir, '--out', out], { env, cwd: dir });
    expect(later.stdout).toContain(
      'signing address expired 2001-01-01T00:00:00.000Z: `npx signrun sign-url out offers/chloe 1` gets a fresh one',
    );
  }, 120_000);

  it('run converges: it syncs what was sent before running, so a declined envelope settles without a sync of its own', async () => {
    const dir = await jobFolder(back.url, 'converge');
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    expect((await runCli(['run', dir, '--out', out], { env })).code).toBe(0);
    const signing = JSON.parse(
      await readFile(path.join(out, 'converge', 'bruno', 'signing.json'), 'utf8'),
    ) as SigningRecord;
    const link = await openSigningLink(signing.recipients[0]!.url!);
    await postForm(`${link.sessionUrl}/decline`, link.cookie, { reason: 'No.', csrfToken: link.csrf });
    requests.length = 0;
    const rerun = await runCli(['run', dir, '--out', out], { env });
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    // Its own status listing, and the plan's listing of the job (issue 10).
    expect(listings().length).toBeLessThanOrEqual(2);
    const bruno = JSON.parse(
      await readFile(path.join(out, 'converge', 'bruno', 'envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    expect(bruno).toMatchObject({ status: 'declined', declinedReason: 'No.' });
    const report = await readReport(out);
    expect(report.envelopes.find((e) => e.key === 'bruno')).toMatchObject({ outcome: 'succeeded', status: 'declined' });
  }, 60_000);
});
