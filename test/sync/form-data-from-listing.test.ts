import { copyFile, cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, FormDataJson, SigningRecord } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { sandboxApi } from '../signing/sandbox-api.js';
import { startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy.js';

// Issue 37, item 1: form data without a call per envelope. The status listing
// asks for the recipients with their tabs (`include=recipients,tabs`, the
// Swagger's own example), the sandbox answers them as DocuSign does, and
// `sync` writes form-data.json from the listing: one call per completed
// envelope (its archive) and not one read of recipients. A service whose
// listing leaves the tabs out (a proxy strips them) costs one read per
// completed envelope, which report.json says; both paths write the same
// form-data.json, value for value.

let sandbox: RunningSandbox;
let proxy: HostileProxy;
let dir: string;
let env: Record<string, string>;
const requests: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, log: (line) => requests.push(line) });
  proxy = await startHostileProxy(sandbox.origin);
  env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl };
  dir = await tempDir('signrun-form-data-listing-');
});
afterAll(async () => {
  if (proxy) delete proxy.beforeRequest;
  await proxy?.close();
  await sandbox?.close();
});

const place = (y: number) => `documentId: 1, pageNumber: 1, xPosition: 100, yPosition: ${y}`;
const keys = ['amy', 'ben', 'cat'];

async function jobFolder(): Promise<void> {
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  const envelope = (key: string) => [
    `  - key: ${key}`,
    '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
    '    recipients:',
    '      signers:',
    `        - { name: Signer ${key}, email: ${key}@example.com, clientUserId: c-${key}, recipientId: 1,`,
    '            tabs: {',
    `              signHereTabs: [{ ${place(100)} }],`,
    `              textTabs: [{ tabLabel: Preferred name, required: false, ${place(200)} },`,
    `                         { tabLabel: Employee ID, value: E-${key}, locked: true, ${place(250)} }] } }`,
    '      carbonCopies:',
    '        - { name: HR, email: hr@example.com, recipientId: 2 }',
  ];
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      'job: offers',
      'defaults: { emailSubject: Please sign, status: sent, returnUrl: "https://example.com/done" }',
      'envelopes:',
      ...keys.flatMap(envelope),
      '',
    ].join('\n'),
  );
}

/** Signs a key's envelope over HTTP, typing `preferred` into its text tab, as the signing page's form does. */
async function signTyping(out: string, key: string, preferred: string): Promise<void> {
  const signing = JSON.parse(await readFile(path.join(out, 'offers', key, 'signing.json'), 'utf8')) as SigningRecord;
  const { envelopeId } = JSON.parse(
    await readFile(path.join(out, 'offers', key, 'envelope.json'), 'utf8'),
  ) as EnvelopeRecord;
  const tabs = await sandboxApi(sandbox.rootUrl).call<{ textTabs: { tabId: string; tabLabel: string }[] }>(
    'GET',
    `/envelopes/${envelopeId}/recipients/1/tabs`,
  );
  const tabId = tabs.json.textTabs.find((t) => t.tabLabel === 'Preferred name')!.tabId;
  const link = await openSigningLink(signing.recipients[0]!.url!);
  const res = await postForm(`${link.sessionUrl}/sign`, link.cookie, {
    signatureName: 'Signed',
    csrfToken: link.csrf,
    fieldsShown: '1',
    [`tab.${tabId}`]: preferred,
  });
  expect(res.status, await res.text()).toBe(303);
}

const readFormData = async (out: string, key: string) =>
  JSON.parse(await readFile(path.join(out, 'offers', key, 'form-data.json'), 'utf8')) as FormDataJson;
const recipientReads = () => requests.filter((l) => /\/recipients\S* 200/.test(l));
/** What a sync spent beyond logging in and listing, per completed envelope (bench/sync's figure). */
const perCompleted = (report: Awaited<ReturnType<typeof readReport>>, completed: number) =>
  (report.api.calls -
    (report.api.byOperation['loginInformation'] ?? 0) -
    (report.api.byOperation['listEnvelopes'] ?? 0)) /
  completed;

describe('form data from the status listing', () => {
  it('one call per completed envelope when the listing carries the tabs; a read each, reported, when it does not', async () => {
    await jobFolder();
    const out = path.join(dir, 'out');
    const sent = await runCli(['run', dir, '--out', out], { env });
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    // The same envelopes for a sync against a service whose listing leaves the tabs out.
    const read = path.join(dir, 'out-read');
    await cp(out, read, { recursive: true });
    await signTyping(out, 'amy', 'Amy');
    await signTyping(out, 'ben', 'Benjamin');

    requests.length = 0;
    const listings: string[] = [];
    proxy.beforeRequest = (method, url) => {
      if (method === 'GET' && /\/envelopes\?/.test(url))
        listings.push(new URL(url, 'http://x').searchParams.get('include')!);
    };
    const fromListing = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(fromListing.code, fromListing.stdout + fromListing.stderr).toBe(0);
    // The listing asked for the tabs, and no recipients were read, on the wire or in the report.
    expect(listings).toHaveLength(1);
    expect(listings[0]!.split(',')).toEqual(expect.arrayContaining(['recipients', 'tabs']));
    expect(recipientReads()).toEqual([]);
    const report = await readReport(out);
    expect(report.api.byOperation['listRecipients']).toBeUndefined();
    expect(report.api.byOperation['downloadArchive']).toBe(2);
    expect(perCompleted(report, 2)).toBe(1);
    expect(report.formData).toEqual({ fromListing: 2, fromConnect: 0, readPerEnvelope: 0, listingCarriedTabs: true });
    expect(fromListing.stderr).not.toContain('warning');

    requests.length = 0;
    proxy.mode = 'listing-without-tabs';
    try {
      const perEnvelope = await runCli(['sync', dir, '--out', read, '--force'], { env });
      expect(perEnvelope.code, perEnvelope.stdout + perEnvelope.stderr).toBe(0);
      expect(perEnvelope.stderr).toContain('warning: ');
    } finally {
      proxy.mode = 'pass';
    }
    expect(recipientReads()).toHaveLength(2);
    const fallback = await readReport(read);
    expect(fallback.api.byOperation['listRecipients']).toBe(2);
    expect(perCompleted(fallback, 2)).toBe(2);
    expect(fallback.formData).toEqual({
      fromListing: 0,
      fromConnect: 0,
      readPerEnvelope: 2,
      listingCarriedTabs: false,
    });

    // The same form-data.json either way, but for when it was read; the typed value, the locked one,
    // and the carbon copy (listed, no tabs) in it.
    for (const key of ['amy', 'ben']) {
      const { readAt: _a, ...listed } = await readFormData(out, key);
      const { readAt: _b, ...readOne } = await readFormData(read, key);
      expect(listed).toEqual(readOne);
    }
    const amy = await readFormData(out, 'amy');
    expect(amy.recipients.map((r) => [r.recipientId, r.kind])).toEqual([
      ['1', 'signer'],
      ['2', 'carbonCopy'],
    ]);
    expect(amy.recipients[0]!.tabs).toContainEqual({ label: 'Preferred name', kind: 'text', value: 'Amy' });
    expect(amy.recipients[0]!.tabs).toContainEqual({ label: 'Employee ID', kind: 'text', value: 'E-amy' });
    expect(amy.recipients[1]!.tabs).toEqual([]);
    expect(await readFile(path.join(out, 'offers', 'form-data.csv'), 'utf8')).toBe(
      await readFile(path.join(read, 'offers', 'form-data.csv'), 'utf8'),
    );
    await expect(stat(path.join(out, 'offers', 'cat', 'form-data.json'))).rejects.toThrow(/ENOENT/);
  }, 120_000);
});
