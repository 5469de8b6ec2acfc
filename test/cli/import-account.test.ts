import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { defaultSeedIds, startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { readReport, sandboxEnv, tempDir } from './run-helpers.js';
import { pinnedImport } from '../helpers/pinned-import.js';
import { createActiveSubsidiary } from '../sandbox/helpers/accounts.js';
import { seedUserHeaders } from '../sandbox/helpers/jwt.js';
import { authHeader, call } from '../sandbox/helpers/api.js';

// `signrun import account` (issue 23): what an account holds — permission
// profiles, groups, users, a brand with its logo, a Connect configuration,
// templates — written as a job file; `plan` of that file against the same
// account says no change for every item. The real CLI against a real sandbox
// over HTTP on 127.0.0.1.

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox?.close();
});

const hookPassword = 'corp-hook-listener-secret-5521';
/** A 1×1 PNG: the brand's logo. */
const logo = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The seed account, provisioned as code by another job: what the import then reads back. */
const provisioning = `version: 1
job: provision
templates:
  - key: offer
    name: Offer letter
    emailSubject: Your offer
    documents: [{ file: docs/offer-letter.pdf }]
    recipients:
      signers:
        - roleName: candidate
          tabs: { textTabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 300, tabLabel: salary }] }
accounts:
  - key: main
    accountName: Sandbox Corp
    accountId: ${defaultSeedIds.accountId}
    userId: ${defaultSeedIds.userId}
    initialUser: { email: sandbox@signrun.test, password: "\${env.MAIN_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    permissionProfiles:
      - permissionProfileName: Legal
        settings: { allowEnvelopeSending: true, allowBulkSending: false }
    groups:
      - { groupName: Legal team, permissionProfileName: Legal }
      - { groupName: Auditors, permissionProfileName: DocuSign Viewer }
    users:
      - { userName: Lea Legal, email: lea@corp.test, permissionProfileName: Legal, groups: [Legal team] }
      - { userName: Otto Audit, email: otto@corp.test, permissionProfileName: DocuSign Viewer, groups: [Auditors, Legal team] }
      - { userName: Sam Former, email: sam@corp.test }
    brands:
      - brandName: Corp Brand
        brandCompany: Sandbox Corp Ltd
        colors:
          - { name: headerBackground, value: "#003366" }
        logos: { primary: brand/logo.png }
        emailContent:
          - { emailContentType: envelopeActivation, content: Please sign. }
        isSendingDefault: true
    connect:
      - name: Corp events
        urlToPublishTo: https://hooks.corp.test/docusign
        allowEnvelopePublish: true
        allUsers: true
        includeHMAC: true
        eventData: { version: restv2.1, format: json, includeData: [recipients, tabs] }
        events: [envelope-sent, envelope-completed]
        userName: hooks
        password: "\${env.HOOK_PASSWORD}"
`;

type Entry = Record<string, unknown> & {
  permissionProfiles?: Array<{ permissionProfileName: string }>;
  groups?: Array<{ groupName: string }>;
  users?: Array<{ email: string; groups?: string[] }>;
  brands?: Array<{ brandName: string; logos?: Record<string, string> }>;
  connect?: Array<{ name: string; password?: string }>;
  templates?: string[];
};

/** Every file's bytes under a folder, as latin1 text. */
async function allText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'latin1')),
  );
  return texts.join('\n');
}

describe('signrun import account', () => {
  it('writes what the account holds; the file validates, plan says no change for every item, secrets stay out', async () => {
    // 1. Provision the account as code (another job), closing one user afterwards.
    const source = await tempDir('signrun-import-account-src-');
    await mkdir(path.join(source, 'brand'));
    await mkdir(path.join(source, 'docs'));
    await writeFile(path.join(source, 'brand/logo.png'), logo);
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(source, 'docs/offer-letter.pdf'));
    await writeFile(path.join(source, 'provision.yaml'), provisioning);
    const sourceEnv = { ...env, MAIN_PASSWORD: 'sandbox-password', HOOK_PASSWORD: hookPassword };
    const provisioned = await runCli(['run', 'provision.yaml', '--out', 'out'], { cwd: source, env: sourceEnv });
    expect(provisioned.code, provisioned.stdout + provisioned.stderr).toBe(0);
    await writeFile(
      path.join(source, 'provision.yaml'),
      provisioning.replace('email: sam@corp.test }', 'email: sam@corp.test, state: absent }'),
    );
    const closed = await runCli(['run', 'provision.yaml', '--out', 'out'], { cwd: source, env: sourceEnv });
    expect(closed.code, closed.stdout + closed.stderr).toBe(0);

    // 2. Import it into a new folder.
    const dir = await tempDir('signrun-import-account-');
    const imported = await runCli(['import', 'account', '--out', 'corp/account.yaml'], { cwd: dir, env });
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect(imported.stdout).toContain('SIGNRUN_CONNECT_PASSWORD_CORP_EVENTS');
    expect(imported.stdout).toContain('SIGNRUN_ACCOUNT_PASSWORD_SANDBOX_CORP');
    expect(imported.stdout).toContain('Next: npx signrun plan corp/account.yaml');
    const folder = path.join(dir, 'corp');
    const text = await readFile(path.join(folder, 'account.yaml'), 'utf8');
    const job = parse(text) as {
      job: string;
      templates: Array<{ key: string; templateId: string }>;
      accounts: Entry[];
    };
    const entry = job.accounts[0]!;
    // What the import says and writes, byte for byte (ids the sandbox makes numbered in order of appearance).
    await expect(await pinnedImport(dir, imported.stdout + imported.stderr, sandbox.rootUrl)).toMatchFileSnapshot(
      'pinned/import-account.txt',
    );
    expect(entry['accountId']).toBe(defaultSeedIds.accountId);
    expect(entry['userId']).toBe(defaultSeedIds.userId);
    // Keys in the order the schema documents them.
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'schemas/job.schema.json'), 'utf8')) as {
      $defs: { account: { properties: Record<string, unknown> } };
    };
    const order = Object.keys(schema.$defs.account.properties);
    expect(Object.keys(entry)).toEqual(order.filter((k) => k in entry));
    expect(Object.keys(job)).toEqual(['version', 'job', 'templates', 'accounts']);
    // DocuSign's own profiles and groups are not written; the closed user is not either.
    expect(entry.permissionProfiles?.map((p) => p.permissionProfileName)).toEqual(['Legal']);
    expect(entry.groups?.map((g) => g.groupName)).toEqual(['Legal team', 'Auditors']);
    expect(entry.users?.map((u) => u.email).sort()).toEqual([
      'lea@corp.test',
      'otto@corp.test',
      'sandbox@signrun.test',
    ]);
    // The seed template and the one kept as code (under the job it carries), each listed by the entry.
    expect(job.job).toBe('provision');
    expect(job.templates.map((t) => t.key).sort()).toEqual(['employment-contract', 'offer']);
    expect(entry.templates?.slice().sort()).toEqual(['employment-contract', 'offer']);
    expect(job.templates.find((t) => t.key === 'employment-contract')?.templateId).toBe(defaultSeedIds.templateId);
    // The logo, byte for byte, beside the job file.
    expect(entry.brands?.[0]?.logos).toEqual({ primary: 'brands/corp-brand/logo-primary.png' });
    expect(await readFile(path.join(folder, 'brands/corp-brand/logo-primary.png'))).toEqual(logo);
    expect(existsSync(path.join(folder, 'templates/offer/offer-letter.pdf'))).toBe(true);
    // Secrets: the listener's password is a variable, never its value; no password anywhere.
    expect(entry.connect?.[0]?.password).toBe('${env.SIGNRUN_CONNECT_PASSWORD_CORP_EVENTS}');
    expect(text).toMatch(
      /password: \$\{env\.SIGNRUN_CONNECT_PASSWORD_CORP_EVENTS\} # set SIGNRUN_CONNECT_PASSWORD_CORP_EVENTS/,
    );
    const written = await allText(dir);
    for (const secret of [hookPassword, 'sandbox-password'])
      expect(written + imported.stdout + imported.stderr).not.toContain(secret);

    // 3. The file validates and plan (a fresh output folder: no journal) says no change for every item.
    const planEnv = {
      ...env,
      SIGNRUN_ACCOUNT_PASSWORD_SANDBOX_CORP: 'sandbox-password',
      SIGNRUN_CONNECT_PASSWORD_CORP_EVENTS: hookPassword,
    };
    const validated = await runCli(['validate', 'corp'], { cwd: dir, env: planEnv });
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    const planned = await runCli(['plan', 'corp/account.yaml', '--format', 'json'], { cwd: dir, env: planEnv });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      items: Array<{
        kind: string;
        decision: { action: string };
        contents?: { unread?: string; items: Array<{ kind: string; name: string; action: string }> };
      }>;
      templates: Array<{ key: string; decision: { action: string } }>;
    };
    const account = plan.items.find((i) => i.kind === 'account')!;
    expect(account.decision.action).toBe('up-to-date');
    expect(account.contents?.unread).toBeUndefined();
    expect(account.contents?.items.every((i) => i.action === 'up-to-date')).toBe(true);
    // The entry is the configured account's: the templates it lists are planned once, among the file's templates.
    expect(account.contents?.items.map((i) => [i.kind, i.name])).toEqual([
      ['permissionProfile', 'Legal'],
      ['group', 'Legal team'],
      ['group', 'Auditors'],
      ['user', 'sandbox@signrun.test'],
      ['user', 'lea@corp.test'],
      ['user', 'otto@corp.test'],
      ['brand', 'Corp Brand'],
      ['connect', 'Corp events'],
    ]);
    expect(plan.templates.map((t) => [t.key, t.decision.action]).sort()).toEqual([
      ['employment-contract', 'up-to-date'],
      ['offer', 'up-to-date'],
    ]);

    // A run of it changes nothing either: no call that writes.
    const ran = await runCli(['run', 'corp/account.yaml', '--out', 'out'], { cwd: dir, env: planEnv });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'out'));
    expect(report.accounts[0]!.contents?.every((c) => c.outcome === 'up-to-date')).toBe(true);
    expect(
      Object.keys(report.api.byOperation).filter((op) => /^(create|update|delete|close|add|remove|put)/.test(op)),
    ).toEqual([]);

    // 4. A second import does not overwrite without --force (nothing written); with it, it does.
    await writeFile(path.join(folder, 'account.yaml'), '# mine\n');
    const refused = await runCli(['import', 'account', '--out', 'corp/account.yaml'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('SR_IMPORT_FILE_EXISTS');
    expect(await readFile(path.join(folder, 'account.yaml'), 'utf8')).toBe('# mine\n');
    const forced = await runCli(['import', 'account', '--out', 'corp/account.yaml', '--force'], { cwd: dir, env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(path.join(folder, 'account.yaml'), 'utf8')).toBe(text);

    // 5. Only inside the job file's folder: a folder on the way that is a link to elsewhere is refused, nothing written.
    const elsewhere = await tempDir('signrun-import-account-elsewhere-');
    await mkdir(path.join(dir, 'linked'));
    await symlink(elsewhere, path.join(dir, 'linked/brands'));
    const linked = await runCli(['import', 'account', '--out', 'linked/account.yaml'], { cwd: dir, env });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('SR_IMPORT_PATH_OUTSIDE');
    expect(await readdir(elsewhere)).toEqual([]);
    expect(existsSync(path.join(dir, 'linked/account.yaml'))).toBe(false);
  });

  it('imports an account by its name or id among those the credentials reach; others are a coded error naming them', async () => {
    const dir = await tempDir('signrun-import-account-pick-');
    const byName = await runCli(['import', 'account', 'Sandbox Corp'], { cwd: dir, env });
    expect(byName.code, byName.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'sandbox-corp.yaml'))).toBe(true);

    // A subsidiary the seed user is no user of: not reached (its id is not listed); its own user reaches it.
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'import-sub', 'admin@import-sub.test');
    // It has a template of its own, made by hand (through the API): not kept as code by any job.
    const pdf = await readFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'));
    const made = await call(`${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}/templates`, {
      headers: authHeader(sub.credentials),
      body: {
        name: 'Sub offer',
        emailSubject: 'Your offer',
        documents: [{ documentId: '1', name: 'offer.pdf', documentBase64: pdf.toString('base64') }],
        recipients: {
          signers: [
            {
              recipientId: '1',
              roleName: 'Candidate',
              routingOrder: '1',
              tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '600' }] },
            },
          ],
        },
      },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const subTemplateId = (made.json as { templateId: string }).templateId;
    const unreached = await runCli(['import', 'account', sub.accountId, '--out', 'sub/sub.yaml'], { cwd: dir, env });
    expect(unreached.code).toBe(2);
    expect(unreached.stderr).toContain('SR_IMPORT_ACCOUNT_NOT_FOUND');
    expect(unreached.stderr).toContain(defaultSeedIds.accountId);
    expect(existsSync(path.join(dir, 'sub'))).toBe(false);
    const subEnv = { ...env, DOCUSIGN_USERNAME: sub.userId, DOCUSIGN_PASSWORD: sub.credentials.password };
    const reached = await runCli(['import', 'account', sub.accountId, '--out', 'sub/sub.yaml'], {
      cwd: dir,
      env: subEnv,
    });
    expect(reached.code, reached.stderr).toBe(0);
    const job = parse(await readFile(path.join(dir, 'sub/sub.yaml'), 'utf8')) as {
      templates: Array<{ key: string; templateId: string }>;
      accounts: Entry[];
    };
    expect(job.accounts[0]).toMatchObject({ accountId: sub.accountId, accountName: 'import-sub', userId: sub.userId });
    expect(job.templates.map((t) => [t.key, t.templateId])).toEqual([['sub-offer', subTemplateId]]);
    expect(job.accounts[0]!.templates).toEqual(['sub-offer']);
    // Logged in as the subsidiary's user: the entry is the configured account's, its template planned once, there.
    const planned = await runCli(['plan', 'sub/sub.yaml', '--format', 'json'], {
      cwd: dir,
      env: { ...subEnv, SIGNRUN_ACCOUNT_PASSWORD_IMPORT_SUB: sub.credentials.password },
    });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      items: Array<{
        decision: { action: string };
        contents?: { items: Array<{ kind: string; action: string }> };
      }>;
      templates: Array<{ key: string; decision: { action: string } }>;
    };
    expect(plan.items[0]!.decision.action).toBe('up-to-date');
    expect(plan.items[0]!.contents?.items.map((i) => [i.kind, i.action])).toEqual([['user', 'up-to-date']]);
    expect(plan.templates.map((t) => [t.key, t.decision.action])).toEqual([['sub-offer', 'up-to-date']]);
    // As the account pipeline acts in a subsidiary: logged in as the main account's user, reading it as its own
    // user. The template is the subsidiary's only (its entry lists it): nothing to make in the main account.
    const mainEnv = { ...env, SIGNRUN_ACCOUNT_PASSWORD_IMPORT_SUB: sub.credentials.password };
    const fromMain = await runCli(['plan', 'sub/sub.yaml', '--format', 'json'], { cwd: dir, env: mainEnv });
    expect(fromMain.code, fromMain.stderr).toBe(0);
    const mainPlan = JSON.parse(fromMain.stdout) as typeof plan;
    expect(mainPlan.items[0]!.decision.action).toBe('up-to-date');
    expect(mainPlan.items[0]!.contents?.items.map((i) => [i.kind, i.action])).toEqual([
      ['user', 'up-to-date'],
      ['template', 'up-to-date'],
    ]);
    expect(mainPlan.templates).toEqual([]);
    // A run of it from the main account writes nothing, in either account.
    const ranFromMain = await runCli(['run', 'sub/sub.yaml', '--out', 'out-sub'], { cwd: dir, env: mainEnv });
    expect(ranFromMain.code, ranFromMain.stdout + ranFromMain.stderr).toBe(0);
    const subReport = await readReport(path.join(dir, 'out-sub'));
    expect(
      Object.keys(subReport.api.byOperation).filter((op) => /^(create|update|delete|close|add|remove|put)/.test(op)),
    ).toEqual([]);
    const mainTemplates = await call(`${sandbox.origin}/restapi/v2.1/accounts/${defaultSeedIds.accountId}/templates`, {
      headers: authHeader(),
    });
    expect(
      ((mainTemplates.json as { envelopeTemplates?: Array<{ name: string }> }).envelopeTemplates ?? []).map(
        (t) => t.name,
      ),
    ).not.toContain('Sub offer');

    // No service configured: nothing to import from.
    const offline = await runCli(['import', 'account'], { cwd: await tempDir('signrun-import-account-off-') });
    expect(offline.code).toBe(2);
    expect(offline.stderr).toContain('SR_IMPORT_NO_SERVICE');
  });

  it("with DocuSign's JWT grant: an account of userinfo's by name; plan of the file, with the same grant, says no change", async () => {
    const registered = await fetch(`${sandbox.origin}/sandbox/integrations/sandbox-integrator-key/rsa-keys`, {
      method: 'POST',
      headers: seedUserHeaders('sandbox-integrator-key'),
    });
    expect(registered.status).toBe(201);
    const dir = await tempDir('signrun-import-account-jwt-');
    await writeFile(path.join(dir, 'docusign.key'), ((await registered.json()) as { privateKey: string }).privateKey, {
      mode: 0o600,
    });
    const jwt = {
      DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key',
      DOCUSIGN_USER_ID: defaultSeedIds.userId,
      DOCUSIGN_PRIVATE_KEY_FILE: path.join(dir, 'docusign.key'),
      DOCUSIGN_OAUTH_BASE: sandbox.origin,
    };
    const imported = await runCli(['import', 'account', 'Sandbox Corp', '--out', 'jwt/corp.yaml'], {
      cwd: dir,
      env: jwt,
    });
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const job = parse(await readFile(path.join(dir, 'jwt/corp.yaml'), 'utf8')) as { accounts: Entry[] };
    expect(job.accounts[0]).toMatchObject({ accountId: defaultSeedIds.accountId, userId: defaultSeedIds.userId });
    // The JWT grant does not use the user's password, but the entry names one: any value does.
    const planned = await runCli(['plan', 'jwt/corp.yaml', '--format', 'json'], {
      cwd: dir,
      env: { ...jwt, SIGNRUN_ACCOUNT_PASSWORD_SANDBOX_CORP: 'unused', SIGNRUN_CONNECT_PASSWORD_CORP_EVENTS: 'unused' },
    });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      items: Array<{ decision: { action: string }; contents?: { unread?: string; items: Array<{ action: string }> } }>;
      templates: Array<{ decision: { action: string } }>;
    };
    expect(plan.items[0]!.decision.action).toBe('up-to-date');
    expect(plan.items[0]!.contents?.unread).toBeUndefined();
    expect(plan.items[0]!.contents?.items.every((i) => i.action === 'up-to-date')).toBe(true);
    expect(plan.templates.every((t) => t.decision.action === 'up-to-date')).toBe(true);
  });
});
