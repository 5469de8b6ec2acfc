import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds, startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from './run-helpers.js';
import { createActiveSubsidiary } from '../sandbox/helpers/accounts.js';

/**
 * Where a job file's templates are kept (docs/job-files.md, "Templates of the
 * job file in an account"): a template that account entries list is kept in
 * those accounts only — the configured account (the one signrun logs in to)
 * keeps the templates no entry lists and those its own entry lists, converged
 * once; an envelope naming a template the configured account will not have is
 * refused before anything is sent (SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT). The
 * real CLI against a real sandbox over HTTP; each account's templates are
 * listed through the sandbox's API.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

/** Calls that change something in an account (client operation names). */
const writeOperations = /^(create|update|delete|close|add|remove|put)/;

const template = `templates:
  - key: offer
    name: Offer letter
    documents: [{ name: offer.pdf, file: offer.pdf }]
    recipients:
      signers:
        - roleName: Candidate
          tabs: { signHereTabs: [{ pageNumber: 1, xPosition: 100, yPosition: 600 }] }
`;

/** A subsidiary's entry (an existing account: its accountId and userId) listing `templates`. */
const subsidiaryEntry = (
  sub: { accountId: string; userId: string },
  key: string,
  templates = '[offer]',
) => `  - key: ${key}
    accountId: ${sub.accountId}
    userId: ${sub.userId}
    accountName: ${key}
    initialUser: { email: admin@${key}.test, firstName: Ada, lastName: Admin, password: "\${env.SUB_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    templates: ${templates}
`;

/** The configured (seed) account's own entry. */
const mainEntry = (templates: string) => `  - key: main
    accountId: ${defaultSeedIds.accountId}
    userId: ${defaultSeedIds.userId}
    accountName: Sandbox Corp
    initialUser: { email: sandbox@signrun.test, password: "\${env.MAIN_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    templates: ${templates}
`;

/** An envelope from the file's template `offer`. */
const envelope = `envelopes:
  - key: ann
    emailSubject: Your offer
    template: offer
    templateRoles:
      - { roleName: Candidate, name: Ann Applicant, email: ann@example.test }
`;

/** The templates of an account, through the API, as one of its users. */
async function templatesOf(
  accountId: string,
  user: { username: string; password: string },
): Promise<Array<{ templateId: string; marked: string }>> {
  const headers = {
    'X-DocuSign-Authentication': JSON.stringify({
      Username: user.username,
      Password: user.password,
      IntegratorKey: 'sandbox-integrator-key',
    }),
  };
  const response = await fetch(`${sandbox.origin}/restapi/v2.1/accounts/${accountId}/templates?include=custom_fields`, {
    headers,
  });
  expect(response.status).toBe(200);
  const listed = (await response.json()) as { envelopeTemplates?: Array<Record<string, unknown>> };
  return (listed.envelopeTemplates ?? []).map((t) => ({
    templateId: String(t['templateId']),
    marked: JSON.stringify(t),
  }));
}

const seedUser = { username: 'sandbox@signrun.test', password: 'sandbox-password' };
/** The templates of the configured account that carry the identity `<job>/offer#template`. */
const parentCopies = async (job: string) =>
  (await templatesOf(defaultSeedIds.accountId, seedUser)).filter((t) => t.marked.includes(`${job}/offer#template`));
const envelopeCount = () =>
  (sandbox.app.sandbox.db.prepare('SELECT COUNT(*) AS n FROM envelopes').get() as { n: number }).n;

async function jobFolder(prefix: string, text: string): Promise<string> {
  const dir = await tempDir(prefix);
  await writeFile(path.join(dir, 'job.yaml'), text);
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'offer.pdf'));
  return dir;
}

type PlanJson = {
  items: Array<{
    kind: string;
    key: string;
    decision: { action: string };
    contents?: { items: Array<{ kind: string; name: string; action: string }> };
  }>;
  templates: Array<{ key: string; decision: { action: string } }>;
};

describe("a job file's templates, kept where account entries list them", () => {
  it('a template only a subsidiary lists is kept there and not in the configured account; a second run changes nothing; absent deletes it there', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'subonly', 'admin@subonly.test');
    const text = `version: 1\njob: sub-only\n${template}accounts:\n${subsidiaryEntry(sub, 'subonly')}`;
    const dir = await jobFolder('signrun-acct-tpl-sub-', text);
    const env = { ...sandboxEnv(sandbox), SUB_PASSWORD: sub.credentials.password };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const subUser = { username: sub.userId, password: sub.credentials.password };

    const planned = await cli('plan', 'job.yaml', '--format', 'json');
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanJson;
    expect(plan.templates).toEqual([]);
    expect(plan.items[0]!.contents?.items.map((i) => [i.kind, i.name, i.action])).toEqual([
      ['template', 'offer', 'create'],
    ]);

    const ran = await cli('run', 'job.yaml', '--out', 'out');
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    let report = await readReport(path.join(dir, 'out'));
    expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.name, c.outcome])).toEqual([
      ['template', 'offer', 'created'],
    ]);
    expect(report.templates ?? []).toEqual([]);
    expect(report.api.byOperation['createTemplate']).toBe(1);
    // In the subsidiary, once; in the configured account, not at all.
    const inSub = await templatesOf(sub.accountId, subUser);
    expect(inSub.map((t) => t.templateId)).toEqual([report.accounts[0]!.contents![0]!.id]);
    expect(inSub[0]!.marked).toContain('sub-only/offer#template');
    expect(await parentCopies('sub-only')).toEqual([]);

    // Nothing to do: no change, no write call, still nothing in the configured account.
    const again = await cli('run', 'job.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    report = await readReport(path.join(dir, 'out'));
    expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.outcome])).toEqual([['template', 'up-to-date']]);
    expect(Object.keys(report.api.byOperation).filter((op) => writeOperations.test(op))).toEqual([]);
    const calm = JSON.parse((await cli('plan', 'job.yaml', '--out', 'out', '--format', 'json')).stdout) as PlanJson;
    expect(calm.templates).toEqual([]);
    expect(calm.items[0]!.contents?.items.map((i) => i.action)).toEqual(['up-to-date']);
    expect(await parentCopies('sub-only')).toEqual([]);

    // state: absent deletes it from the account that lists it; the configured account is not asked.
    await writeFile(
      path.join(dir, 'job.yaml'),
      text.replace('    name: Offer letter\n', '    name: Offer letter\n    state: absent\n'),
    );
    const removed = await cli('run', 'job.yaml', '--out', 'out');
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    report = await readReport(path.join(dir, 'out'));
    expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.outcome])).toEqual([['template', 'deleted']]);
    expect(report.templates ?? []).toEqual([]);
    expect(await templatesOf(sub.accountId, subUser)).toEqual([]);
  });

  it('an envelope naming a template only other accounts keep is refused before anything is sent: offline when no listing entry can be the sending account, else by plan and run', async () => {
    // Offline: the only entry listing it has no accountId (an account signrun creates), so it can never be the sending one.
    const created = `version: 1
job: refused-offline
${template}accounts:
  - key: acme-new
    accountName: Acme New
    initialUser: { email: admin@acme-new.test, password: "\${env.SUB_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    templates: [offer]
${envelope}`;
    const offline = await jobFolder('signrun-acct-tpl-offline-', created);
    const validated = await runCli(['validate', 'job.yaml', '--format', 'json'], {
      cwd: offline,
      env: { SUB_PASSWORD: 'unused' },
    });
    expect(validated.code, validated.stdout + validated.stderr).toBe(2);
    const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const diagnostics = (
      JSON.parse(validated.stdout) as { diagnostics: Array<{ code: string; line: number; field?: string }> }
    ).diagnostics.map((d) => [d.code, d.line, d.field]);
    expect(diagnostics).toEqual([
      ['SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT', lineOf(created, 'template: offer'), 'envelopes[0].template'],
    ]);
    // The same with several templates (`templates: [<key>…]`): at the key's line.
    const composite = created.replace('    template: offer\n', '    templates: [offer]\n');
    await writeFile(path.join(offline, 'job.yaml'), composite);
    const refusedComposite = await runCli(['validate', 'job.yaml', '--format', 'json'], {
      cwd: offline,
      env: { SUB_PASSWORD: 'unused' },
    });
    expect(refusedComposite.code, refusedComposite.stdout).toBe(2);
    expect(
      (JSON.parse(refusedComposite.stdout) as { diagnostics: Array<{ code: string; field?: string }> }).diagnostics.map(
        (d) => [d.code, d.field],
      ),
    ).toEqual([['SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT', 'envelopes[0].templates[0]']]);

    // An existing subsidiary (its accountId): not decidable offline; plan and run stop, exit 2, nothing sent or made.
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'subrefused', 'admin@subrefused.test');
    const text = `version: 1\njob: refused\n${template}accounts:\n${subsidiaryEntry(sub, 'subrefused')}${envelope}`;
    const dir = await jobFolder('signrun-acct-tpl-refused-', text);
    const env = { ...sandboxEnv(sandbox), SUB_PASSWORD: sub.credentials.password };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    expect((await cli('validate', 'job.yaml')).code).toBe(0);
    const before = envelopeCount();
    const planned = await cli('plan', 'job.yaml');
    expect(planned.code, planned.stdout + planned.stderr).toBe(2);
    expect(planned.stdout + planned.stderr).toContain('SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT');
    const refused = await cli('run', 'job.yaml', '--out', 'out');
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stdout + refused.stderr).toMatch(
      new RegExp(`job\\.yaml:${lineOf(text, '- key: ann')}:\\d+ SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT`),
    );
    // The message says what to do.
    expect(refused.stdout + refused.stderr).toContain(`accountId: ${defaultSeedIds.accountId}, templates: [offer]`);
    expect(envelopeCount()).toBe(before);
    expect(await templatesOf(sub.accountId, { username: sub.userId, password: sub.credentials.password })).toEqual([]);
    expect(await parentCopies('refused')).toEqual([]);
  });

  it("the configured account's own entry may list a template: kept there once, with the top-level ones, and envelopes use it", async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'subtoo', 'admin@subtoo.test');
    const text = `version: 1\njob: main-listed\n${template}accounts:\n${mainEntry('[offer]')}${subsidiaryEntry(sub, 'subtoo')}${envelope}`;
    const dir = await jobFolder('signrun-acct-tpl-main-', text);
    const env = { ...sandboxEnv(sandbox), SUB_PASSWORD: sub.credentials.password, MAIN_PASSWORD: 'sandbox-password' };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });

    // Planned once in the configured account (among the templates), not again as an item of its entry.
    const planned = await cli('plan', 'job.yaml', '--format', 'json');
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanJson;
    expect(plan.templates.map((t) => [t.key, t.decision.action])).toEqual([['offer', 'create']]);
    const [main, subItem] = plan.items.filter((i) => i.kind === 'account');
    expect(main!.contents?.items.filter((i) => i.kind === 'template') ?? []).toEqual([]);
    expect(subItem!.contents?.items.map((i) => [i.kind, i.name, i.action])).toEqual([['template', 'offer', 'create']]);

    const ran = await cli('run', 'job.yaml', '--out', 'out');
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'out'));
    expect(report.templates?.map((t) => [t.key, t.outcome])).toEqual([['offer', 'created']]);
    const templateId = report.templates![0]!.templateId!;
    expect(report.accounts.find((a) => a.key === 'main')!.contents?.filter((c) => c.kind === 'template') ?? []).toEqual(
      [],
    );
    // Created once in each account: the configured one and the subsidiary.
    expect(report.api.byOperation['createTemplate']).toBe(2);
    expect((await parentCopies('main-listed')).map((t) => t.templateId)).toEqual([templateId]);
    // The envelope went from the configured account's copy.
    const sent = sandbox.app.sandbox.db
      .prepare('SELECT template_id AS templateId FROM envelopes WHERE id = ?')
      .get(report.envelopes[0]!.envelopeId) as { templateId: string };
    expect(sent.templateId).toBe(templateId);

    // Run again: nothing written anywhere.
    const again = await cli('run', 'job.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const second = await readReport(path.join(dir, 'out'));
    expect(second.templates?.map((t) => t.outcome)).toEqual(['up-to-date']);
    expect(Object.keys(second.api.byOperation).filter((op) => writeOperations.test(op))).toEqual([]);
    expect((await parentCopies('main-listed')).map((t) => t.templateId)).toEqual([templateId]);
  });
});
