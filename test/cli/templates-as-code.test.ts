import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSandbox } from '../../src/sandbox/index.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import {
  sharedBrowser,
  releaseBrowser,
  newPage,
  returnedEvent,
  signAllTabs,
  startReturnServer,
  waitForDocuments,
} from '../helpers/browser.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { TemplateJson } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { startHostileProxy } from '../helpers/hostile-proxy.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { readReport, sandboxEnv, tempDir, validateReport } from './run-helpers.js';

/**
 * Issue 21, "Done when": a template defined in a job file is created by
 * `run`, used by an envelope of the same file through `template: <key>`,
 * changed in the file and updated by the next run, edited through the API
 * behind signrun's back and reported by `plan` as changed outside, then put
 * back by `run`; removed with `state: absent`. And two racing runs create
 * one template, not two.
 */
let sandbox: RunningSandbox;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let browser: Browser;

beforeAll(async () => {
  [sandbox, back, browser] = await Promise.all([
    startSandbox({ port: 0, quiet: true }),
    startReturnServer(),
    sharedBrowser(),
  ]);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

const auth = JSON.stringify({
  Username: 'sandbox@signrun.test',
  Password: 'sandbox-password',
  IntegratorKey: 'sandbox-integrator-key',
});

/** The seed account's API base (…/accounts/{accountId}), from login_information. */
async function accountBase(): Promise<string> {
  const login = (await (
    await fetch(`${sandbox.rootUrl}/login_information`, { headers: { 'X-DocuSign-Authentication': auth } })
  ).json()) as { loginAccounts: Array<{ baseUrl: string }> };
  return login.loginAccounts[0]!.baseUrl;
}

async function api(method: string, url: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const answer = await fetch(url, {
    method,
    headers: { 'X-DocuSign-Authentication': auth, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: answer.status, json: await answer.json() };
}

/** Live templates of the account carrying this signrun identity. */
async function templatesOf(identity: string): Promise<string[]> {
  const { json } = await api('GET', `${await accountBase()}/templates?include=custom_fields&count=100`);
  const list = (json as { envelopeTemplates?: Array<{ templateId: string; customFields?: unknown }> })
    .envelopeTemplates;
  return (list ?? [])
    .filter((t) =>
      (
        t.customFields as { textCustomFields?: Array<{ name: string; value: string }> } | undefined
      )?.textCustomFields?.some((f) => f.name === 'signrun' && f.value === identity),
    )
    .map((t) => t.templateId);
}

function jobText(job: string, options: { description?: string; state?: 'absent' } = {}): string {
  const template =
    options.state === 'absent'
      ? `  - key: mutual-nda
    name: Mutual NDA
    state: absent
`
      : `  - key: mutual-nda
    name: Mutual NDA
    description: ${options.description ?? 'Our standard mutual NDA'}
    emailSubject: Please sign the NDA
    documents:
      - { name: nda.pdf, file: docs/nda.pdf }
    recipients:
      signers:
        - roleName: Counterparty
          routingOrder: 1
          tabs:
            signHereTabs: [{ pageNumber: 1, xPosition: 100, yPosition: 600 }]
            textTabs: [{ tabLabel: company, pageNumber: 1, xPosition: 100, yPosition: 500 }]
      carbonCopies:
        - { roleName: Legal, name: Legal Team, email: legal@example.com, routingOrder: 2 }
`;
  const envelopes =
    options.state === 'absent'
      ? ''
      : `envelopes:
  - key: nda-acme
    emailSubject: NDA with ACME
    template: mutual-nda
    templateRoles:
      - roleName: Counterparty
        name: Ann Acme
        email: ann@acme.example
        tabs:
          textTabs: [{ tabLabel: company, value: ACME Inc }]
`;
  return `version: 1\njob: ${job}\ntemplates:\n${template}${envelopes}`;
}

async function jobFolder(job: string): Promise<string> {
  const dir = await tempDir('signrun-templates-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/nda.pdf'));
  await writeFile(path.join(dir, 'nda.yaml'), jobText(job));
  return dir;
}

async function templateRecord(out: string, job: string): Promise<TemplateJson> {
  return JSON.parse(await readFile(path.join(out, job, 'templates', 'mutual-nda.json'), 'utf8')) as TemplateJson;
}

describe('templates as code', () => {
  it('creates, uses, updates, puts back and deletes a template defined in a job file', async () => {
    const job = 'nda-lifecycle';
    const dir = await jobFolder(job);
    const env = sandboxEnv(sandbox);
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });

    const first = await cli('plan', 'nda.yaml');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/create template +nda-lifecycle\/mutual-nda/);

    const created = await cli('run', 'nda.yaml', '--out', 'out');
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'out'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.templates?.[0]).toMatchObject({ key: 'mutual-nda', outcome: 'created' });
    const templateId = report.templates![0]!.templateId!;
    expect(await templatesOf(`${job}/mutual-nda#template`)).toEqual([templateId]);
    expect((await templateRecord(path.join(dir, 'out'), job)).templateId).toBe(templateId);
    // CI reads it too: a test case of the templates suite.
    const junit = await readFile(path.join(dir, 'out/junit.xml'), 'utf8');
    expect(junit).toContain(`<testcase classname="${job}.templates" name="mutual-nda"`);
    expect(junit).toContain(`created; templateId ${templateId}`);
    // The envelope was made from that template, its role's tab filled by label.
    const envelopeId = report.envelopes[0]!.envelopeId!;
    const sent = sandbox.app.sandbox.db
      .prepare('SELECT template_id AS templateId FROM envelopes WHERE id = ?')
      .get(envelopeId.toLowerCase()) as { templateId: string };
    expect(sent.templateId.toLowerCase()).toBe(templateId.toLowerCase());
    const tabs = await api('GET', `${await accountBase()}/envelopes/${envelopeId}/recipients?include_tabs=true`);
    expect(JSON.stringify(tabs.json)).toContain('ACME Inc');

    const unchanged = await cli('plan', 'nda.yaml');
    expect(unchanged.stdout).toMatch(/no change +nda-lifecycle\/mutual-nda/);

    // Changed in the file: updated by the next run, the difference said.
    await writeFile(path.join(dir, 'nda.yaml'), jobText(job, { description: 'Mutual NDA, 2027 edition' }));
    const changed = await cli('plan', 'nda.yaml');
    expect(changed.stdout).toMatch(/update template +nda-lifecycle\/mutual-nda/);
    expect(changed.stdout).toContain('description: "Mutual NDA, 2027 edition" in the file, "Our standard mutual NDA"');
    const updated = await cli('run', 'nda.yaml', '--out', 'out');
    expect(updated.code, updated.stdout + updated.stderr).toBe(0);
    expect((await readReport(path.join(dir, 'out'))).templates?.[0]).toMatchObject({
      outcome: 'updated',
      templateId,
    });
    const stored = await api('GET', `${await accountBase()}/templates/${templateId}`);
    expect(JSON.stringify(stored.json)).toContain('Mutual NDA, 2027 edition');

    // Edited through the API behind signrun's back: plan says so, run puts the file's version back.
    const edit = await api('PUT', `${await accountBase()}/templates/${templateId}`, { name: 'NDA (edited by hand)' });
    expect(edit.status).toBe(200);
    const outside = await cli('plan', 'nda.yaml');
    expect(outside.stdout).toMatch(/changed outside +nda-lifecycle\/mutual-nda/);
    expect(outside.stdout).toContain('name: "Mutual NDA" in the file, "NDA (edited by hand)" in the account');
    const putBack = await cli('run', 'nda.yaml', '--out', 'out');
    expect(putBack.code, putBack.stdout + putBack.stderr).toBe(0);
    expect(putBack.stdout).toContain('had been changed outside signrun');
    expect((await readReport(path.join(dir, 'out'))).templates?.[0]).toMatchObject({
      outcome: 'updated',
      outside: true,
    });
    // v2 answers the name in envelopeTemplateDefinition (v2.1 at the top).
    const restored = (await api('GET', `${await accountBase()}/templates/${templateId}`)).json as {
      envelopeTemplateDefinition?: { name?: string };
    };
    expect(restored.envelopeTemplateDefinition?.name).toBe('Mutual NDA');
    expect((await cli('plan', 'nda.yaml')).stdout).toMatch(/no change +nda-lifecycle\/mutual-nda/);

    // state: absent deletes it, once.
    await writeFile(path.join(dir, 'nda.yaml'), jobText(job, { state: 'absent' }));
    const removed = await cli('run', 'nda.yaml', '--out', 'out');
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    expect((await readReport(path.join(dir, 'out'))).templates?.[0]).toMatchObject({ outcome: 'deleted' });
    expect((await api('GET', `${await accountBase()}/templates/${templateId}`)).status).toBe(400);
    expect(await templatesOf(`${job}/mutual-nda#template`)).toEqual([]);
    const again = await cli('run', 'nda.yaml', '--out', 'out');
    expect((await readReport(path.join(dir, 'out'))).templates?.[0]).toMatchObject({ outcome: 'already-absent' });
    expect(again.code).toBe(0);
  });

  it('two runs racing from fresh checkouts create one template, and both envelopes use it', async () => {
    const job = 'nda-race';
    const [a, b] = await Promise.all([jobFolder(job), jobFolder(job)]);
    // Both creates reach the service before either is answered: both runs make one, then keep the earliest.
    // A barrier, not a sleep: the proxy holds each POST …/templates until both have arrived.
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    const held: Array<() => void> = [];
    let creates = 0;
    proxy.beforeRequest = (method, url) => {
      if (method !== 'POST' || !/\/templates$/.test(url)) return;
      creates += 1;
      return new Promise<void>((release) => {
        held.push(release);
        if (held.length === 2) for (const go of held.splice(0)) go();
      });
    };
    try {
      const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl };
      const [ra, rb] = await Promise.all(
        [a, b].map((dir) => runCli(['run', 'nda.yaml', '--out', 'out'], { cwd: dir, env })),
      );
      expect(ra!.code, ra!.stdout + ra!.stderr).toBe(0);
      expect(rb!.code, rb!.stdout + rb!.stderr).toBe(0);
      expect(creates).toBe(2);
      const kept = await templatesOf(`${job}/mutual-nda#template`);
      expect(kept).toHaveLength(1);
      const [ta, tb] = await Promise.all([
        templateRecord(path.join(a, 'out'), job),
        templateRecord(path.join(b, 'out'), job),
      ]);
      expect(ta.templateId).toBe(kept[0]);
      expect(tb.templateId).toBe(kept[0]);
    } finally {
      await proxy.close();
    }
  });
});

describe('several templates in one envelope', () => {
  it('sends a template of the file, the seed template and an extra PDF as compositeTemplates; signed, its documents are the three', async () => {
    const dir = await jobFolder('combo');
    await copyFile(path.join(repoRoot, 'examples/docs/company-handbook.pdf'), path.join(dir, 'docs/handbook.pdf'));
    await writeFile(
      path.join(dir, 'combo.yaml'),
      `version: 1
job: combo
templates:
  - key: nda
    name: Onboarding NDA
    documents: [{ name: nda.pdf, file: docs/nda.pdf }]
    recipients:
      signers:
        - roleName: employee
          tabs:
            signHereTabs: [{ pageNumber: 1, xPosition: 100, yPosition: 600 }]
            textTabs: [{ tabLabel: company, pageNumber: 1, xPosition: 100, yPosition: 500 }]
envelopes:
  - key: onboarding-ann
    emailSubject: Your onboarding pack
    returnUrl: ${back.url}
    templates: [nda, 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01]
    documents: [{ name: handbook.pdf, file: docs/handbook.pdf }]
    templateRoles:
      - roleName: employee
        name: Ann Acme
        email: ann@acme.example
        clientUserId: ann
        tabs:
          textTabs: [{ tabLabel: company, value: ACME Inc }]
          signHereTabs: [{ documentId: 1, pageNumber: 1, xPosition: 300, yPosition: 700 }]
      - { roleName: employer, name: Thomas Keller, email: thomas@example.com, clientUserId: tk }
`,
    );
    const env = sandboxEnv(sandbox);
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const sent = await cli('run', 'combo.yaml', '--out', 'out');
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const out = path.join(dir, 'out');
    const report = await readReport(out);
    const envelopeId = report.envelopes[0]!.envelopeId!;
    // The wire was compositeTemplates: the envelope holds the three documents, in order.
    const listed = await api('GET', `${await accountBase()}/envelopes/${envelopeId}/documents`);
    const names = (listed.json as { envelopeDocuments: Array<{ name: string; type?: string }> }).envelopeDocuments
      .filter((d) => d.type !== 'summary')
      .map((d) => d.name);
    expect(names).toEqual(['nda.pdf', 'Employment contract.pdf', 'handbook.pdf']);

    // Both sign through the addresses run wrote: Ann in Chromium, where the page draws the three documents
    // and her fields on them; Thomas's page would draw the same three again (issue 38), so he signs over HTTP.
    const signing = JSON.parse(
      await readFile(path.join(out, 'combo/onboarding-ann/signing.json'), 'utf8'),
    ) as SigningRecord;
    const addressOf = (who: string) => signing.recipients.find((r) => r.clientUserId === who)!.url!;
    const { page, context } = await newPage(browser);
    await page.goto(addressOf('ann'));
    // Three documents: every one drawn (and its fields on it) before the fields are counted.
    await waitForDocuments(page);
    // Each of the three is drawn on the page (its pages are images named after it).
    for (const name of names)
      expect(await page.getByRole('img', { name: `${name}, `, exact: false }).count(), name).toBeGreaterThan(0);
    await signAllTabs(page);
    expect(await returnedEvent(page, back.url)).toBe('signing_complete');
    await context.close();
    expect(await signOverHttp(addressOf('tk'), 'Thomas Keller')).toBe('signing_complete');

    const synced = await cli('sync', 'combo.yaml', '--out', 'out', '--force');
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    const record = JSON.parse(
      await readFile(path.join(out, 'combo/onboarding-ann/envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    expect(record.status).toBe('completed');
    const documents = record.files.filter((f) => f.path.includes('/documents/')).map((f) => path.basename(f.path));
    expect(documents).toEqual([
      expect.stringMatching(/nda\.pdf$/),
      expect.stringMatching(/Employment-contract\.pdf$/),
      expect.stringMatching(/handbook\.pdf$/),
    ]);
  });
});
