import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { AccountRecord } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir, validateReport } from './run-helpers.js';
import { startHostileProxy } from '../helpers/hostile-proxy.js';
import { createActiveSubsidiary } from '../sandbox/helpers/accounts.js';

/**
 * Issue 23, "Done when": a job file provisions a subsidiary with two
 * permission profiles, two groups, three users, a brand with a logo, a
 * Connect configuration and a template of the job file (`accounts[].templates`);
 * a second `run` changes nothing (no write call); a change made behind
 * signrun's back to the brand (its logo and a colour), to the Connect
 * configuration and to the template is reported by `plan` as changed outside
 * and put back by `run`; `state: absent` closes a user. The listener's
 * password never reaches the output or state folders. The real CLI against a
 * real sandbox over HTTP.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

const password = 'acme-at-admin-password';
const hookPassword = 'hook-listener-secret-7731';
/** A 1×1 PNG: the brand's logo as the file has it. */
const logo = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** A 1×1 GIF: what someone puts in its place behind signrun's back. */
const otherLogo = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const jobText = `version: 1
job: subsidiaries
templates:
  - key: offer
    name: Offer letter
    emailSubject: Your offer from Acme Austria
    documents:
      - { name: offer.pdf, file: docs/offer.pdf }
    recipients:
      signers:
        - roleName: Candidate
          tabs:
            signHereTabs: [{ pageNumber: 1, xPosition: 100, yPosition: 600 }]
accounts:
  - key: acme-at
    accountName: Acme Austria
    initialUser: { email: admin@acme-at.test, firstName: Ada, lastName: Admin, password: "\${env.ACME_AT_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    permissionProfiles:
      - permissionProfileName: Legal
        settings: { allowEnvelopeSending: true, allowBulkSending: false }
      - permissionProfileName: Read only
        settings: { allowEnvelopeSending: false }
    groups:
      - { groupName: Legal team, permissionProfileName: Legal }
      - { groupName: Auditors, permissionProfileName: Read only }
    users:
      - { userName: Lea Legal, email: lea@acme-at.test, permissionProfileName: Legal, groups: [Legal team] }
      - { userName: Otto Audit, email: otto@acme-at.test, permissionProfileName: Read only, groups: [Auditors] }
      - { userName: Sam Sender, email: sam@acme-at.test, groups: [Legal team] }
    brands:
      - brandName: Acme AT
        brandCompany: Acme Austria GmbH
        colors:
          - { name: headerBackground, value: "#003366" }
          - { name: buttonPrimaryBackground, value: "#FF6600" }
        logos: { primary: brand/logo.png }
        emailContent:
          - { emailContentType: envelopeActivation, content: Bitte unterschreiben Sie. }
        isSendingDefault: true
    connect:
      - name: Acme AT events
        urlToPublishTo: https://hooks.acme-at.test/docusign
        allowEnvelopePublish: true
        allUsers: true
        includeHMAC: true
        eventData: { version: restv2.1, format: json, includeData: [recipients, tabs] }
        events: [envelope-sent, envelope-completed]
        userName: hooks
        password: "\${env.ACME_AT_HOOK_PASSWORD}"
    templates: [offer]
`;

/** Calls that change something in an account (client operation names). */
const writeOperations = /^(create|update|delete|close|add|remove|put)/;

/** Every file's text under a folder (the output folder and the state inside it). */
async function allText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'latin1')),
  );
  return texts.join('\n');
}

describe('brands and Connect configurations kept as code', () => {
  it('provisions them with the people, changes nothing the second time, and puts back changes made outside', async () => {
    const dir = await tempDir('signrun-brands-');
    await writeFile(path.join(dir, 'acme.yaml'), jobText);
    await mkdir(path.join(dir, 'brand'));
    await writeFile(path.join(dir, 'brand/logo.png'), logo);
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer.pdf'));
    const env = { ...sandboxEnv(sandbox), ACME_AT_PASSWORD: password, ACME_AT_HOOK_PASSWORD: hookPassword };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const out = path.join(dir, 'out');

    // 1. Created; its contents wait for the activation, which the activation message's link does.
    const created = await cli('run', 'acme.yaml', '--out', 'out');
    expect(created.code, created.stdout + created.stderr).toBe(0);
    let report = await readReport(out);
    expect(report.accounts[0]!.contents?.map((c) => c.outcome)).toEqual(Array(10).fill('not-started'));
    const record = JSON.parse(
      await readFile(path.join(out, 'subsidiaries/acme-at/account.json'), 'utf8'),
    ) as AccountRecord;
    const outbox = (await (
      await fetch(`${sandbox.origin}/sandbox/outbox?format=json&to=admin@acme-at.test`)
    ).json()) as { messages: Array<{ kind: string; links: string[] }> };
    expect((await fetch(outbox.messages.find((m) => m.kind === 'account-activation')!.links[0]!)).status).toBe(200);

    // 2. Activated: profiles, groups, users, then the brand (with its logo), the Connect configuration and the template.
    const provisioned = await cli('run', 'acme.yaml', '--out', 'out');
    expect(provisioned.code, provisioned.stdout + provisioned.stderr).toBe(0);
    expect(provisioned.stdout + provisioned.stderr).toContain(
      'profiles, groups, users, brands, Connect configurations and templates: 10 created',
    );
    report = await readReport(out);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.name, c.outcome])).toEqual([
      ['permissionProfile', 'Legal', 'created'],
      ['permissionProfile', 'Read only', 'created'],
      ['group', 'Legal team', 'created'],
      ['group', 'Auditors', 'created'],
      ['user', 'lea@acme-at.test', 'created'],
      ['user', 'otto@acme-at.test', 'created'],
      ['user', 'sam@acme-at.test', 'created'],
      ['brand', 'Acme AT', 'created'],
      ['connect', 'Acme AT events', 'created'],
      ['template', 'offer', 'created'],
    ]);
    const admin = {
      'X-DocuSign-Authentication': JSON.stringify({
        Username: record.userId,
        Password: password,
        IntegratorKey: 'sandbox-integrator-key',
      }),
    };
    const base = `${sandbox.origin}/restapi/v2.1/accounts/${record.accountId}`;
    const call = (method: string, url: string, body?: unknown, type = 'application/json') =>
      fetch(`${base}${url}`, {
        method,
        headers: { ...admin, 'content-type': type },
        ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
      });
    const api = async (method: string, url: string, body?: unknown) =>
      (await (await call(method, url, body)).json()) as Record<string, unknown>;
    type Brand = {
      brandId: string;
      brandName: string;
      brandCompany: string;
      colors: Array<{ name: string; value: string }>;
      isSendingDefault: boolean;
    };
    const brands = async () => (await api('GET', '/brands')).brands as Brand[];
    const logoNow = async (brandId: string) =>
      sha(Buffer.from(await (await call('GET', `/brands/${brandId}/logos/primary`)).arrayBuffer()));
    const [brand] = await brands();
    expect(await brands()).toHaveLength(1);
    expect(brand).toMatchObject({ brandName: 'Acme AT', brandCompany: 'Acme Austria GmbH', isSendingDefault: true });
    expect(await logoNow(brand!.brandId)).toBe(sha(logo));
    type Config = Record<string, unknown> & { connectId: string };
    const configs = async () => (await api('GET', '/connect')).configurations as Config[];
    const [config] = await configs();
    expect(await configs()).toHaveLength(1);
    expect(config).toMatchObject({
      name: 'Acme AT events',
      urlToPublishTo: 'https://hooks.acme-at.test/docusign',
      includeHMAC: 'true',
      allUsers: 'true',
      events: ['envelope-sent', 'envelope-completed'],
      eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients', 'tabs'] },
    });

    // The template, once, in the subsidiary: its own id there, carrying the job file's identity.
    type Template = { templateId: string; name?: string; envelopeTemplateDefinition?: { name?: string } };
    const templates = async () =>
      ((await api('GET', '/templates?include=custom_fields')).envelopeTemplates as Template[] | undefined) ?? [];
    const [template] = await templates();
    expect(await templates()).toHaveLength(1);
    expect(template!.templateId).toBe(report.accounts[0]!.contents?.find((c) => c.kind === 'template')?.id);
    // Only the subsidiary's entry lists it: the configured account keeps no copy.
    expect(report.templates ?? []).toEqual([]);
    expect(JSON.stringify(template)).toContain('subsidiaries/offer#template');

    // 3. Nothing to do: no change for each of the ten, and no write call.
    const calm = await cli('plan', 'acme.yaml', '--out', 'out', '--format', 'json');
    expect(calm.code, calm.stderr).toBe(0);
    const calmPlan = JSON.parse(calm.stdout) as { items: Array<{ contents?: { items: Array<{ action: string }> } }> };
    expect(calmPlan.items[0]!.contents?.items.map((i) => i.action)).toEqual(Array(10).fill('up-to-date'));
    const again = await cli('run', 'acme.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout + again.stderr).toContain(
      'profiles, groups, users, brands, Connect configurations and templates: 10 no change',
    );
    report = await readReport(out);
    expect(report.accounts[0]!.contents?.every((c) => c.outcome === 'up-to-date')).toBe(true);
    expect(Object.keys(report.api.byOperation).filter((op) => writeOperations.test(op))).toEqual([]);

    // 4. Behind signrun's back: another logo and header colour, Connect posting elsewhere, the template renamed.
    expect((await call('PUT', `/brands/${brand!.brandId}/logos/primary`, otherLogo, 'image/gif')).status).toBe(200);
    await api('PUT', `/brands/${brand!.brandId}`, {
      colors: [
        { name: 'headerBackground', value: '#000000' },
        { name: 'buttonPrimaryBackground', value: '#FF6600' },
      ],
    });
    await api('PUT', '/connect', { connectId: config!.connectId, urlToPublishTo: 'https://elsewhere.test/hook' });
    expect((await call('PUT', `/templates/${template!.templateId}`, { name: 'Offer (edited by hand)' })).status).toBe(
      200,
    );
    const drift = await cli('plan', 'acme.yaml', '--out', 'out');
    expect(drift.code, drift.stderr).toBe(0);
    expect(drift.stdout).toMatch(/changed outside +brand Acme AT/);
    expect(drift.stdout).toContain(
      `logos.primary: sha256 ${sha(otherLogo).slice(0, 12)}… → sha256 ${sha(logo).slice(0, 12)}…`,
    );
    expect(drift.stdout).toContain('headerBackground=#000000');
    expect(drift.stdout).toMatch(/changed outside +Connect configuration Acme AT events/);
    expect(drift.stdout).toContain(
      'urlToPublishTo: "https://elsewhere.test/hook" → "https://hooks.acme-at.test/docusign"',
    );
    expect(drift.stdout).toMatch(/changed outside +template offer/);
    expect(drift.stdout).toContain('name: "Offer letter" in the file, "Offer (edited by hand)" in the account');
    expect(drift.stdout).toMatch(/no change +user lea@acme-at\.test/);
    const putBack = await cli('run', 'acme.yaml', '--out', 'out');
    expect(putBack.code, putBack.stdout + putBack.stderr).toBe(0);
    expect(putBack.stdout + putBack.stderr).toContain('3 updated (3 changed outside signrun, put back), 7 no change');
    report = await readReport(out);
    expect(report.accounts[0]!.contents?.filter((c) => c.outcome === 'updated')).toEqual([
      expect.objectContaining({ kind: 'brand', name: 'Acme AT', outside: true, id: brand!.brandId }),
      expect.objectContaining({ kind: 'connect', name: 'Acme AT events', outside: true, id: config!.connectId }),
      expect.objectContaining({ kind: 'template', name: 'offer', outside: true, id: template!.templateId }),
    ]);
    expect(await logoNow(brand!.brandId)).toBe(sha(logo));
    expect((await brands())[0]!.colors).toContainEqual({ name: 'headerBackground', value: '#003366' });
    expect((await configs())[0]!.urlToPublishTo).toBe('https://hooks.acme-at.test/docusign');
    const restored = (await api('GET', `/templates/${template!.templateId}`)) as Template;
    expect(restored.name ?? restored.envelopeTemplateDefinition?.name).toBe('Offer letter');
    expect(await templates()).toHaveLength(1);
    const settled = await cli('plan', 'acme.yaml', '--out', 'out', '--format', 'json');
    expect((JSON.parse(settled.stdout) as typeof calmPlan).items[0]!.contents?.items.map((i) => i.action)).toEqual(
      Array(10).fill('up-to-date'),
    );

    // 5. state: absent closes a user and deletes the Connect configuration; the brand stays.
    await writeFile(
      path.join(dir, 'acme.yaml'),
      jobText
        .replace(
          '        password: "${env.ACME_AT_HOOK_PASSWORD}"\n',
          '        password: "${env.ACME_AT_HOOK_PASSWORD}"\n        state: absent\n',
        )
        .replace('groups: [Legal team] }\n    brands', 'groups: [Legal team], state: absent }\n    brands'),
    );
    const removed = await cli('run', 'acme.yaml', '--out', 'out');
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    report = await readReport(out);
    expect(report.accounts[0]!.contents?.find((c) => c.kind === 'connect')).toMatchObject({
      outcome: 'deleted',
      id: config!.connectId,
    });
    expect(await configs()).toEqual([]);
    expect(await brands()).toHaveLength(1);
    const sam = report.accounts[0]!.contents?.find((c) => c.kind === 'user' && c.name === 'sam@acme-at.test');
    expect(sam).toMatchObject({ outcome: 'deleted' });
    type User = { userId: string; email: string; userStatus: string };
    const users = (await api('GET', '/users?status=closed')).users as User[];
    expect(users.map((u) => [u.userId, u.email])).toEqual([[sam!.id, 'sam@acme-at.test']]);

    // The listener's password went to the service only: nowhere in what signrun wrote or printed.
    const printed = [created, provisioned, calm, again, drift, putBack, settled, removed]
      .map((r) => r.stdout + r.stderr)
      .join('\n');
    expect(printed).not.toContain(hookPassword);
    expect(await allText(dir)).not.toContain(hookPassword);
  });

  it('validate refuses a literal listener password, a logo that is no image and one outside the folder, an unknown template key, at their lines', async () => {
    const dir = await tempDir('signrun-brands-bad-');
    await writeFile(path.join(dir, 'notes.png'), 'not an image at all');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer.pdf'));
    await mkdir(path.join(dir, 'brand'));
    await writeFile(path.join(dir, 'brand/logo.png'), logo);
    const validate = async (text: string) => {
      await writeFile(path.join(dir, 'acme.yaml'), text);
      const result = await runCli(['validate', 'acme.yaml', '--format', 'json'], {
        cwd: dir,
        env: { ACME_AT_PASSWORD: password, ACME_AT_HOOK_PASSWORD: hookPassword },
      });
      expect(result.code, result.stdout + result.stderr).toBe(2);
      const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
      const found = (
        JSON.parse(result.stdout) as { diagnostics: Array<{ code: string; line: number; field?: string }> }
      ).diagnostics.map((d) => [d.code, d.line, d.field]);
      return { result, found, lineOf };
    };
    // A secret is checked with the references, before anything else is read.
    const literal = await validate(jobText.replace('"${env.ACME_AT_HOOK_PASSWORD}"', 'written-in-the-file'));
    expect(literal.found).toEqual([
      ['SR_PASSWORD_LITERAL', literal.lineOf('written-in-the-file'), 'accounts[0].connect[0].password'],
    ]);
    expect(literal.result.stdout + literal.result.stderr).not.toContain('written-in-the-file');
    // Logos: by their bytes, inside the job file's folder.
    const logos = await validate(
      jobText.replace('logos: { primary: brand/logo.png }', 'logos: { primary: notes.png, email: ../outside.png }'),
    );
    expect(logos.found).toEqual([
      ['SR_LOGO_NOT_IMAGE', logos.lineOf('notes.png'), 'accounts[0].brands[0].logos.primary'],
      ['SR_LOGO_OUTSIDE_JOB_FOLDER', logos.lineOf('../outside.png'), 'accounts[0].brands[0].logos.email'],
    ]);
    // An account's template names a template of the file, by its key.
    const unknown = await validate(jobText.replace('templates: [offer]', 'templates: [offers]'));
    expect(unknown.found).toEqual([
      ['SR_TEMPLATE_KEY_UNKNOWN', unknown.lineOf('templates: [offers]'), 'accounts[0].templates[0]'],
    ]);
    expect(unknown.result.stdout).toContain('did you mean \\"offer\\"?');
  });

  it('two runs racing from fresh checkouts leave one brand and one Connect configuration, and report the same ones', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'brandrace', 'admin@brandrace.test');
    const text = `version: 1
job: subsidiaries
accounts:
  - key: brandrace
    accountId: ${sub.accountId}
    userId: ${sub.userId}
    accountName: Brand race
    initialUser: { email: admin@brandrace.test, firstName: Ada, lastName: Admin, password: "\${env.RACE_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    brands:
      - { brandName: Race, brandCompany: Race AG, logos: { primary: logo.png } }
    connect:
      - { name: Race events, urlToPublishTo: "https://hooks.race.test/ds", allUsers: true, events: [envelope-sent] }
`;
    const [a, b] = [await tempDir('signrun-brands-a-'), await tempDir('signrun-brands-b-')];
    for (const dir of [a, b]) {
      await writeFile(path.join(dir, 'race.yaml'), text);
      await writeFile(path.join(dir, 'logo.png'), logo);
    }
    // A barrier, not a sleep: each create waits until the other run's has arrived too.
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    const held: Array<() => void> = [];
    let creates = 0;
    proxy.beforeRequest = (method, url) => {
      if (method !== 'POST' || !/\/(brands|connect)$/.test(url)) return;
      creates += 1;
      return new Promise<void>((release) => {
        held.push(release);
        if (held.length === 2) for (const go of held.splice(0)) go();
      });
    };
    try {
      const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl, RACE_PASSWORD: 'brandrace-password' };
      const [ra, rb] = await Promise.all(
        [a, b].map((dir) => runCli(['run', 'race.yaml', '--out', 'out'], { cwd: dir, env })),
      );
      expect(ra!.code, ra!.stdout + ra!.stderr).toBe(0);
      expect(rb!.code, rb!.stdout + rb!.stderr).toBe(0);
      expect(creates).toBe(4); // a brand and a configuration, each by both runs
      const [repA, repB] = [await readReport(path.join(a, 'out')), await readReport(path.join(b, 'out'))];
      const ids = (r: typeof repA) => r.accounts[0]!.contents?.map((c) => [c.kind, c.outcome, c.id]);
      expect(ids(repA)).toEqual(ids(repB));
      const headers = {
        'X-DocuSign-Authentication': JSON.stringify({
          Username: sub.userId,
          Password: 'brandrace-password',
          IntegratorKey: 'sandbox-integrator-key',
        }),
      };
      const base = `${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}`;
      const list = async (what: string) =>
        (await (await fetch(`${base}/${what}`, { headers })).json()) as Record<string, Array<Record<string, string>>>;
      const brands = (await list('brands')).brands!;
      const configs = (await list('connect')).configurations!;
      expect(brands.map((x) => x.brandId)).toEqual([repA.accounts[0]!.contents![0]!.id]);
      expect(configs.map((x) => x.connectId)).toEqual([repA.accounts[0]!.contents![1]!.id]);
      // The brand that stayed has its logo.
      const logoNow = await fetch(`${base}/brands/${brands[0]!.brandId}/logos/primary`, { headers });
      expect(sha(Buffer.from(await logoNow.arrayBuffer()))).toBe(sha(logo));
    } finally {
      await proxy.close();
    }
  });

  it("two runs racing from fresh checkouts leave one copy of an account's template, and report the same one", async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'tplrace', 'admin@tplrace.test');
    const text = `version: 1
job: template-race
templates:
  - key: offer
    name: Offer letter
    documents: [{ name: offer.pdf, file: offer.pdf }]
    recipients:
      signers: [{ roleName: Candidate }]
accounts:
  - key: tplrace
    accountId: ${sub.accountId}
    userId: ${sub.userId}
    accountName: Template race
    initialUser: { email: admin@tplrace.test, firstName: Ada, lastName: Admin, password: "\${env.RACE_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    templates: [offer]
`;
    const [a, b] = [await tempDir('signrun-tpl-a-'), await tempDir('signrun-tpl-b-')];
    for (const dir of [a, b]) {
      await writeFile(path.join(dir, 'race.yaml'), text);
      await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'offer.pdf'));
    }
    // A barrier, not a sleep: each create of a template waits until the other run's has arrived too
    // (in the subsidiary only: the configured account keeps no template that only other entries list).
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
      const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl, RACE_PASSWORD: 'tplrace-password' };
      const [ra, rb] = await Promise.all(
        [a, b].map((dir) => runCli(['run', 'race.yaml', '--out', 'out'], { cwd: dir, env })),
      );
      expect(ra!.code, ra!.stdout + ra!.stderr).toBe(0);
      expect(rb!.code, rb!.stdout + rb!.stderr).toBe(0);
      expect(creates).toBe(2); // in the subsidiary, by both runs
      const [repA, repB] = [await readReport(path.join(a, 'out')), await readReport(path.join(b, 'out'))];
      const ids = (r: typeof repA) => r.accounts[0]!.contents?.map((c) => [c.kind, c.id]);
      expect(ids(repA)).toEqual(ids(repB));
      // The entry keeps no people: the account's people are not listed.
      expect(
        Object.keys(repA.api.byOperation).filter((op) => /^list(Users|Groups|PermissionProfiles)$/.test(op)),
      ).toEqual([]);
      const headers = {
        'X-DocuSign-Authentication': JSON.stringify({
          Username: sub.userId,
          Password: 'tplrace-password',
          IntegratorKey: 'sandbox-integrator-key',
        }),
      };
      const listed = (await (
        await fetch(`${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}/templates`, { headers })
      ).json()) as { envelopeTemplates?: Array<{ templateId: string }> };
      expect(listed.envelopeTemplates?.map((x) => x.templateId)).toEqual([repA.accounts[0]!.contents![0]!.id]);
    } finally {
      await proxy.close();
    }
  });

  it('a create whose answer was lost (the service made it) leaves one brand and one configuration, reported created', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'brandlost', 'admin@brandlost.test');
    const dir = await tempDir('signrun-brands-lost-');
    await writeFile(path.join(dir, 'logo.png'), logo);
    await writeFile(
      path.join(dir, 'lost.yaml'),
      `version: 1
job: subsidiaries
accounts:
  - key: brandlost
    accountId: ${sub.accountId}
    userId: ${sub.userId}
    accountName: Brand lost
    initialUser: { email: admin@brandlost.test, firstName: Ada, lastName: Admin, password: "\${env.LOST_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    brands:
      - { brandName: Lost, logos: { primary: logo.png } }
    connect:
      - { name: Lost events, urlToPublishTo: "https://hooks.lost.test/ds", events: [envelope-sent] }
`,
    );
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    // The first answer of each create is lost after the sandbox committed it.
    const lost = new Set<string>();
    proxy.loseAnswer = (method, url) => {
      const kind = /\/(brands|connect)$/.exec(url)?.[1];
      if (method !== 'POST' || !kind || lost.has(kind)) return false;
      lost.add(kind);
      return true;
    };
    try {
      const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl, LOST_PASSWORD: 'brandlost-password' };
      const run = await runCli(['run', 'lost.yaml', '--out', 'out'], { cwd: dir, env });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect([...lost].sort()).toEqual(['brands', 'connect']);
      const report = await readReport(path.join(dir, 'out'));
      expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.outcome])).toEqual([
        ['brand', 'created'],
        ['connect', 'created'],
      ]);
      const headers = {
        'X-DocuSign-Authentication': JSON.stringify({
          Username: sub.userId,
          Password: 'brandlost-password',
          IntegratorKey: 'sandbox-integrator-key',
        }),
      };
      const base = `${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}`;
      const list = async (what: string) =>
        (await (await fetch(`${base}/${what}`, { headers })).json()) as Record<string, Array<Record<string, string>>>;
      expect((await list('brands')).brands!.map((x) => x.brandId)).toEqual([report.accounts[0]!.contents![0]!.id]);
      expect((await list('connect')).configurations!).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("an envelope's brandId goes to the service: the envelope is sent with that brand", async () => {
    const dir = await tempDir('signrun-brand-envelope-');
    const env = sandboxEnv(sandbox);
    const login = (await (
      await fetch(`${sandbox.origin}/restapi/v2.1/login_information`, {
        headers: {
          'X-DocuSign-Authentication': JSON.stringify({
            Username: 'sandbox@signrun.test',
            Password: 'sandbox-password',
            IntegratorKey: 'sandbox-integrator-key',
          }),
        },
      })
    ).json()) as { loginAccounts: Array<{ accountId: string; baseUrl: string }> };
    const main = login.loginAccounts[0]!;
    const headers = {
      'X-DocuSign-Authentication': JSON.stringify({
        Username: 'sandbox@signrun.test',
        Password: 'sandbox-password',
        IntegratorKey: 'sandbox-integrator-key',
      }),
      'content-type': 'application/json',
    };
    const made = (await (
      await fetch(`${main.baseUrl}/brands`, { method: 'POST', headers, body: JSON.stringify({ brandName: 'Offers' }) })
    ).json()) as { brands: Array<{ brandId: string }> };
    const brandId = made.brands[0]!.brandId;
    await writeFile(
      path.join(dir, 'offers.yaml'),
      `version: 1
job: branded-offers
envelopes:
  - key: ann
    emailSubject: Your offer
    brandId: ${brandId}
    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01
    templateRoles:
      - { roleName: employee, name: Ann, email: ann@example.test }
      - { roleName: employer, name: Bob, email: bob@example.test }
`,
    );
    const run = await runCli(['run', 'offers.yaml', '--out', 'out'], { cwd: dir, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'out'));
    const envelopeId = report.envelopes[0]!.envelopeId!;
    const envelope = (await (await fetch(`${main.baseUrl}/envelopes/${envelopeId}`, { headers })).json()) as {
      brandId?: string;
    };
    expect(envelope.brandId).toBe(brandId);
  });

  it("an envelope's brand by name: the sending account's entry creates it first, the envelope goes with its brandId; one the account lacks stops plan and run before anything is sent", async () => {
    const env = { ...sandboxEnv(sandbox), MAIN_PASSWORD: 'sandbox-password' };
    const headers = {
      'X-DocuSign-Authentication': JSON.stringify({
        Username: 'sandbox@signrun.test',
        Password: 'sandbox-password',
        IntegratorKey: 'sandbox-integrator-key',
      }),
    };
    const login = (await (await fetch(`${sandbox.origin}/restapi/v2.1/login_information`, { headers })).json()) as {
      loginAccounts: Array<{ accountId: string; userId: string; baseUrl: string }>;
    };
    const main = login.loginAccounts[0]!;
    const brandNamed = async (name: string) =>
      (
        (await (await fetch(`${main.baseUrl}/brands`, { headers })).json()) as { brands: Array<Record<string, string>> }
      ).brands.filter((b) => b.brandName === name);
    const envelopes = () =>
      (sandbox.app.sandbox.db.prepare('SELECT COUNT(*) AS n FROM envelopes').get() as { n: number }).n;
    const job = (brand: string, mainBrand = 'Welcome Pack') => `version: 1
job: branded-by-name
accounts:
  - key: main
    accountId: ${main.accountId}
    userId: ${main.userId}
    accountName: Sandbox Corp
    initialUser: { email: sandbox@signrun.test, password: "\${env.MAIN_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    brands:
      - { brandName: ${mainBrand}, brandCompany: Sandbox Corp }
  - key: elsewhere
    accountName: Elsewhere
    state: absent
    brands:
      - { brandName: Elsewhere only }
envelopes:
  - key: ann
    emailSubject: Your offer
    brand: ${brand}
    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01
    templateRoles:
      - { roleName: employee, name: Ann, email: ann@example.test }
      - { roleName: employer, name: Bob, email: bob@example.test }
`;
    const dir = await tempDir('signrun-brand-name-');
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });

    // Offline: the name must be a brand an account entry of the file keeps; not with brandId beside it.
    await writeFile(path.join(dir, 'offers.yaml'), job('Welcome Pak'));
    const unknown = await cli('validate', 'offers.yaml', '--format', 'json');
    expect(unknown.code, unknown.stdout + unknown.stderr).toBe(2);
    const diagnostics = (text: string) =>
      (JSON.parse(text) as { diagnostics: Array<{ code: string; line: number; field?: string }> }).diagnostics.map(
        (d) => [d.code, d.line, d.field],
      );
    const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(diagnostics(unknown.stdout)).toEqual([
      ['SR_BRAND_NAME_UNKNOWN', lineOf(job('Welcome Pak'), 'brand: Welcome Pak'), 'envelopes[0].brand'],
    ]);
    expect(unknown.stdout).toContain('did you mean \\"Welcome Pack\\"?');
    const both = job('welcome pack').replace(
      '    brand: welcome pack\n',
      '    brand: welcome pack\n    brandId: b1b2c3d4-0000-4000-8000-000000000001\n',
    );
    await writeFile(path.join(dir, 'offers.yaml'), both);
    const twice = await cli('validate', 'offers.yaml', '--format', 'json');
    expect(diagnostics(twice.stdout)).toEqual([
      ['SR_BRAND_AND_BRAND_ID', lineOf(both, 'brand: welcome pack'), 'envelopes[0].brand'],
    ]);

    // A brand of the file that the sending account lacks and no entry for it keeps: plan and run stop, nothing sent.
    const before = envelopes();
    await writeFile(path.join(dir, 'offers.yaml'), job('elsewhere ONLY'));
    const planned = await cli('plan', 'offers.yaml');
    expect(planned.code, planned.stdout + planned.stderr).toBe(2);
    expect(planned.stdout + planned.stderr).toContain('SR_BRAND_NOT_IN_ACCOUNT');
    const refused = await cli('run', 'offers.yaml', '--out', 'out');
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stdout + refused.stderr).toMatch(/offers\.yaml:\d+:\d+ SR_BRAND_NOT_IN_ACCOUNT/);
    expect(envelopes()).toBe(before);
    expect(await brandNamed('Welcome Pack')).toEqual([]);

    // The sending account's own entry keeps it: plan has nothing against it; run makes the brand first, then sends.
    await writeFile(path.join(dir, 'offers.yaml'), job('welcome pack'));
    const fine = await cli('plan', 'offers.yaml');
    expect(fine.code, fine.stdout + fine.stderr).toBe(0);
    expect(fine.stdout).toMatch(/create +brand Welcome Pack/);
    const run = await cli('run', 'offers.yaml', '--out', 'out');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'out'));
    const [made] = await brandNamed('Welcome Pack');
    // The entry that ran first is not run again with the others: one account counted, one brand made, none deleted.
    expect(report.totals.accounts).toMatchObject({ total: 2, upToDate: 1, alreadyAbsent: 1 });
    expect(report.api.byOperation).toMatchObject({ createBrand: 1 });
    expect(report.api.byOperation).not.toHaveProperty('deleteBrand');
    expect(report.accounts[0]!.contents).toEqual([
      expect.objectContaining({ kind: 'brand', outcome: 'created', id: made!.brandId }),
    ]);
    const envelopeId = report.envelopes[0]!.envelopeId!;
    const sent = (await (await fetch(`${main.baseUrl}/envelopes/${envelopeId}`, { headers })).json()) as {
      brandId?: string;
    };
    expect(sent.brandId).toBe(made!.brandId);
    // Run again: nothing written — the envelope is the one sent (its content names the brand, not its id), the brand too.
    const again = await cli('run', 'offers.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const second = await readReport(path.join(dir, 'out'));
    expect(second.envelopes[0]).toMatchObject({ envelopeId, outcome: 'succeeded' });
    expect(Object.keys(second.api.byOperation).filter((op) => writeOperations.test(op))).toEqual([]);
    expect(second.accounts[0]!.contents?.[0]).toMatchObject({ outcome: 'up-to-date', id: made!.brandId });
  });
});
