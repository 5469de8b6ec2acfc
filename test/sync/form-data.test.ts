import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, FormDataJson, SigningRecord } from '../../src/output/records.js';
import type { Browser } from 'playwright-core';
import {
  releaseBrowser,
  sharedBrowser,
  newPage,
  returnedEvent,
  signAllTabs,
  startReturnServer,
  waitForDocuments,
} from '../helpers/browser.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { sandboxApi } from '../signing/sandbox-api.js';
import { tool } from '../signing/pdf-tools.js';

// Issue 19, "What the signers entered": the offer-letter example, three rows,
// two candidates sign and type into their fields (one in Chromium), and `sync` writes each
// completed envelope's form-data.json and the job's form-data.csv; the
// stamped PDF holds the row's values.

let sandbox: RunningSandbox;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let browser: Browser;
const requests: string[] = [];

beforeAll(async () => {
  [sandbox, back, browser] = await Promise.all([
    startSandbox({ port: 0, log: (line) => requests.push(line) }),
    startReturnServer(),
    sharedBrowser(),
  ]);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

/** The example job with its first `rows` rows, returning to the test's server. */
async function offerLetters(rows: number): Promise<string> {
  const dir = await tempDir('signrun-form-data-');
  await mkdir(path.join(dir, 'docs'));
  await mkdir(path.join(dir, 'data'));
  const examples = path.join(repoRoot, 'examples');
  await copyFile(path.join(examples, 'docs/offer-letter-form.pdf'), path.join(dir, 'docs/offer-letter-form.pdf'));
  const csv = (await readFile(path.join(examples, 'data/offers.csv'), 'utf8')).split('\n');
  await writeFile(path.join(dir, 'data/offers.csv'), `${csv.slice(0, rows + 1).join('\n')}\n`);
  const job = await readFile(path.join(examples, 'offer-letters.yaml'), 'utf8');
  await writeFile(path.join(dir, 'offers.yaml'), job.replace(/^( {2}returnUrl:).*$/m, `$1 ${back.url}`));
  return dir;
}

type Tab = { tabId: string; tabLabel?: string };

/** Signs one candidate's envelope over HTTP, typing `typed` (by tab label) into their fields. */
async function signWith(out: string, key: string, typed: Record<string, string>): Promise<void> {
  const signing = JSON.parse(
    await readFile(path.join(out, 'offer-letters-2027', key, 'signing.json'), 'utf8'),
  ) as SigningRecord;
  const envelope = JSON.parse(
    await readFile(path.join(out, 'offer-letters-2027', key, 'envelope.json'), 'utf8'),
  ) as EnvelopeRecord;
  const api = sandboxApi(sandbox.rootUrl);
  const tabs = await api.call<Record<string, Tab[]>>('GET', `/envelopes/${envelope.envelopeId}/recipients/1/tabs`);
  const idOf = (label: string) =>
    Object.values(tabs.json)
      .flat()
      .find((t) => t.tabLabel === label)!.tabId;
  const link = await openSigningLink(signing.recipients[0]!.url!);
  const form: Record<string, string> = { signatureName: 'Signed', csrfToken: link.csrf, fieldsShown: '1' };
  for (const [label, value] of Object.entries(typed)) form[`tab.${idOf(label)}`] = value;
  const res = await postForm(`${link.sessionUrl}/sign`, link.cookie, form);
  expect(res.status, await res.text()).toBe(303);
  expect(new URL(res.headers.get('location')!).searchParams.get('event')).toBe('signing_complete');
}

describe('sync writes what the signers entered', () => {
  it('form-data.json per completed envelope and form-data.csv per job, values as typed', async () => {
    const dir = await offerLetters(3);
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const sent = await runCli(['run', dir, '--out', out], { env });
    expect(sent.code, sent.stderr + sent.stdout).toBe(0);

    // C2001 signs in Chromium: her row says relocation true, she unticks it and types a preferred name;
    // the salary is shown, locked.
    {
      const signing = JSON.parse(
        await readFile(path.join(out, 'offer-letters-2027', 'offer-C2001', 'signing.json'), 'utf8'),
      ) as SigningRecord;
      const { page, context } = await newPage(browser);
      await page.goto(signing.recipients[0]!.url!);
      await waitForDocuments(page);
      const salary = page.getByLabel('Salary');
      expect(await salary.inputValue()).toBe('72000');
      expect(await salary.isEditable()).toBe(false);
      await page.getByLabel('Preferred first name').fill('Amy');
      await page.getByLabel('Relocation support').uncheck();
      await signAllTabs(page);
      expect(await returnedEvent(page, back.url)).toBe('signing_complete');
      await context.close();
    }
    // C2002 ticks relocation and types what a spreadsheet would run.
    await signWith(out, 'offer-C2002', {
      'Preferred first name': '=HYPERLINK("http://evil.example")',
      'Relocation support': 'true',
    });
    // C2003 leaves hers unsigned.

    requests.length = 0;
    const synced = await runCli(['sync', dir, '--out', out], { env });
    expect(synced.code, synced.stderr + synced.stdout).toBe(0);
    expect(synced.stdout).toContain('What the signers entered: ');
    expect(synced.stdout).toContain(`form-data.csv (2 completed envelope(s))`);
    // No read of the tabs: the status listing carried them (issue 37).
    expect(requests.filter((l) => /\/recipients\S* 200/.test(l))).toEqual([]);

    const formData = async (key: string) =>
      JSON.parse(await readFile(path.join(out, 'offer-letters-2027', key, 'form-data.json'), 'utf8')) as FormDataJson;
    const amelie = await formData('offer-C2001');
    expect(amelie.status).toBe('completed');
    expect(amelie.recipients).toHaveLength(2);
    expect(amelie.recipients[0]).toMatchObject({ recipientId: '1', kind: 'signer', name: 'Amélie Laurent' });
    // HR in copy: listed, with no tabs of its own.
    expect(amelie.recipients[1]).toMatchObject({ recipientId: '2', kind: 'carbonCopy', name: 'Acme HR', tabs: [] });
    const tabs = new Map(amelie.recipients[0]!.tabs.map((t) => [t.label, t]));
    expect(tabs.get('Salary')).toEqual({ label: 'Salary', kind: 'number', value: '72000' });
    expect(tabs.get('Office')).toEqual({ label: 'Office', kind: 'list', value: 'LIS', text: 'Lisbon' });
    expect(tabs.get('Preferred first name')).toMatchObject({ kind: 'text', value: 'Amy' });
    expect(tabs.get('Relocation support')).toMatchObject({ kind: 'checkbox', value: '' });
    // Signatures are listed with their kind, and hold no value.
    expect(amelie.recipients[0]!.tabs.filter((t) => t.kind === 'initialHere')).toHaveLength(2);
    expect(amelie.recipients[0]!.tabs.find((t) => t.kind === 'dateSigned')!.value).toMatch(/^\d+\/\d+\/\d{4}$/);
    await expect(readFile(path.join(out, 'offer-letters-2027', 'offer-C2003', 'form-data.json'))).rejects.toThrow(
      /ENOENT/,
    );

    const csvText = await readFile(path.join(out, 'offer-letters-2027', 'form-data.csv'), 'utf8');
    const rows = parse<Record<string, string>>(csvText, { columns: true });
    expect(rows.map((r) => [r['key'], r['status']])).toEqual([
      ['offer-C2001', 'completed'],
      ['offer-C2002', 'completed'],
    ]);
    expect(rows[0]).toMatchObject({
      Salary: '72000',
      Office: 'LIS',
      'Relocation support': '',
      'Preferred first name': 'Amy',
    });
    expect(rows[1]).toMatchObject({ Salary: '56000', Office: 'BOS', 'Relocation support': 'X' });
    // A cell a spreadsheet would run is quoted, not lost.
    expect(rows[1]!['Preferred first name']).toBe(`'=HYPERLINK("http://evil.example")`);
    // Signature tabs hold no value: no column for them.
    expect(Object.keys(rows[0]!)).not.toContain('signHere');

    // The stamped PDF holds the row's values where the anchors put them.
    const record = JSON.parse(
      await readFile(path.join(out, 'offer-letters-2027', 'offer-C2001', 'envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    expect(record.files.map((f) => f.path)).toContain('offer-letters-2027/offer-C2001/form-data.json');
    const pdf = record.files.find((f) => f.path.includes('/documents/'))!;
    const text = (await tool('pdftotext', ['-layout', path.join(out, pdf.path), '-'])).out;
    for (const value of ['Amélie Laurent', 'Senior Engineer', '72000', '2027-01-04', 'Lisbon', 'Amy'])
      expect(text).toContain(value);

    // A second sync reads nothing again and writes the same table.
    requests.length = 0;
    const again = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(requests.filter((l) => /\/recipients\S* 200/.test(l))).toEqual([]);
    expect(await readFile(path.join(out, 'offer-letters-2027', 'form-data.csv'), 'utf8')).toBe(csvText);
  });
});
