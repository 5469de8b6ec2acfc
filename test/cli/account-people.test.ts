import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { AccountRecord } from '../../src/output/records.js';
import { runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir, validateReport } from './run-helpers.js';
import { startHostileProxy } from '../helpers/hostile-proxy.js';
import { createActiveSubsidiary } from '../sandbox/helpers/accounts.js';

/**
 * Issue 23, "Done when" (users, groups, permission profiles): a job file
 * provisions a subsidiary with two permission profiles, two groups and three
 * users; a second `run` changes nothing (plan: no change; no write call); a
 * change made through the API behind signrun's back is reported by `plan` as
 * changed outside and put back by `run`; `state: absent` removes a user.
 * The real CLI against a real sandbox over HTTP.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

const password = 'acme-de-admin-password';

function jobText(samState: 'present' | 'absent' = 'present'): string {
  return `version: 1
job: subsidiaries
accounts:
  - key: acme-de
    accountName: Acme Deutschland
    initialUser: { email: admin@acme-de.test, firstName: Ada, lastName: Admin, password: "\${env.ACME_DE_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    permissionProfiles:
      - permissionProfileName: Legal
        settings: { allowEnvelopeSending: true, allowBulkSending: false }
      - permissionProfileName: Read only
        settings: { allowEnvelopeSending: false, allowAccountManagement: "false" }
    groups:
      - { groupName: Legal team, permissionProfileName: Legal }
      - { groupName: Auditors, permissionProfileName: Read only }
    users:
      - { userName: Lea Legal, email: lea@acme-de.test, permissionProfileName: Legal, groups: [Legal team] }
      - { userName: Otto Audit, email: otto@acme-de.test, permissionProfileName: Read only, groups: [Auditors] }
      - { userName: Sam Sender, email: sam@acme-de.test, permissionProfileName: DocuSign Sender, groups: [Legal team, Auditors], state: ${samState} }
`;
}

/** Calls that change something in an account (client operation names). */
const writeOperations = /^(create|update|delete|close|add|remove)/;

describe('users, groups and permission profiles kept as code', () => {
  it('provisions them, changes nothing the second time, puts back a change made outside, and removes an absent user', async () => {
    const dir = await tempDir('signrun-people-');
    await writeFile(path.join(dir, 'acme.yaml'), jobText());
    const env = { ...sandboxEnv(sandbox), ACME_DE_PASSWORD: password };
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const out = path.join(dir, 'out');

    // 1. The account is created and awaits its activation: its people wait for it.
    const created = await cli('run', 'acme.yaml', '--out', 'out');
    expect(created.code, created.stdout + created.stderr).toBe(0);
    let report = await readReport(out);
    expect(report.accounts[0]).toMatchObject({ outcome: 'created', awaitingActivation: true });
    expect(report.accounts[0]!.contents?.map((c) => c.outcome)).toEqual(Array(7).fill('not-started'));
    // Run again before the activation: still waiting, not a failure.
    const early = await cli('run', 'acme.yaml', '--out', 'out');
    expect(early.code, early.stdout + early.stderr).toBe(0);
    report = await readReport(out);
    expect(report.accounts[0]).toMatchObject({ outcome: 'up-to-date', awaitingActivation: true });
    expect(report.accounts[0]!.contents?.map((c) => c.outcome)).toEqual(Array(7).fill('not-started'));
    const record = JSON.parse(
      await readFile(path.join(out, 'subsidiaries/acme-de/account.json'), 'utf8'),
    ) as AccountRecord;
    expect(record.state).toBe('awaiting-activation');
    const outbox = (await (
      await fetch(`${sandbox.origin}/sandbox/outbox?format=json&to=admin@acme-de.test`)
    ).json()) as {
      messages: Array<{ kind: string; links: string[] }>;
    };
    expect((await fetch(outbox.messages.find((m) => m.kind === 'account-activation')!.links[0]!)).status).toBe(200);

    // 2. Activated: the next run provisions two profiles, two groups, three users, in that order.
    const provisioned = await cli('run', 'acme.yaml', '--out', 'out');
    expect(provisioned.code, provisioned.stdout + provisioned.stderr).toBe(0);
    expect(provisioned.stdout + provisioned.stderr).toContain('profiles, groups and users: 7 created');
    // account.json says what the account is now: activated, it no longer awaits its activation.
    const activated = JSON.parse(
      await readFile(path.join(out, 'subsidiaries/acme-de/account.json'), 'utf8'),
    ) as AccountRecord;
    expect(activated).toEqual({ ...record, state: 'present' });
    report = await readReport(out);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.accounts[0]!.contents?.map((c) => [c.kind, c.name, c.outcome])).toEqual([
      ['permissionProfile', 'Legal', 'created'],
      ['permissionProfile', 'Read only', 'created'],
      ['group', 'Legal team', 'created'],
      ['group', 'Auditors', 'created'],
      ['user', 'lea@acme-de.test', 'created'],
      ['user', 'otto@acme-de.test', 'created'],
      ['user', 'sam@acme-de.test', 'created'],
    ]);
    const admin = {
      'X-DocuSign-Authentication': JSON.stringify({
        Username: record.userId,
        Password: password,
        IntegratorKey: 'sandbox-integrator-key',
      }),
      'content-type': 'application/json',
    };
    const base = `${sandbox.origin}/restapi/v2.1/accounts/${record.accountId}`;
    const api = async (method: string, url: string, body?: unknown) =>
      (await (
        await fetch(`${base}${url}`, { method, headers: admin, ...(body ? { body: JSON.stringify(body) } : {}) })
      ).json()) as Record<string, unknown>;
    const users = async (query = '') =>
      (
        (await api('GET', `/users?additional_info=true${query}`)).users as Array<{
          userId: string;
          email: string;
          userName: string;
          permissionProfileName: string;
          groupList: Array<{ groupName: string }>;
        }>
      ).filter((u) => u.email !== 'admin@acme-de.test');
    const sam = (await users()).find((u) => u.email === 'sam@acme-de.test')!;
    expect(sam).toMatchObject({ userName: 'Sam Sender', permissionProfileName: 'DocuSign Sender' });
    expect(sam.groupList.map((g) => g.groupName)).toEqual(['Everyone', 'Legal team', 'Auditors']);
    const groups = (await api('GET', '/groups')).groups as Array<{ groupName: string; permissionProfileId?: string }>;
    const profiles = (await api('GET', '/permission_profiles')).permissionProfiles as Array<{
      permissionProfileId: string;
      permissionProfileName: string;
      settings: Record<string, string>;
    }>;
    const legal = profiles.find((p) => p.permissionProfileName === 'Legal')!;
    expect(legal.settings).toMatchObject({ allowEnvelopeSending: 'true', allowBulkSending: 'false' });
    expect(groups.find((g) => g.groupName === 'Legal team')?.permissionProfileId).toBe(legal.permissionProfileId);

    // 3. Nothing to do: the plan says no change for each; the run makes no write call.
    const calm = await cli('plan', 'acme.yaml', '--out', 'out', '--format', 'json');
    expect(calm.code, calm.stderr).toBe(0);
    const calmPlan = JSON.parse(calm.stdout) as { items: Array<{ contents?: { items: Array<{ action: string }> } }> };
    expect(calmPlan.items[0]!.contents?.items.map((i) => i.action)).toEqual(Array(7).fill('up-to-date'));
    const again = await cli('run', 'acme.yaml', '--out', 'out');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    report = await readReport(out);
    expect(report.accounts[0]!.contents?.every((c) => c.outcome === 'up-to-date')).toBe(true);
    expect(Object.keys(report.api.byOperation).filter((op) => writeOperations.test(op))).toEqual([]);

    // 4. Behind signrun's back: Otto gets another profile and leaves his group, Legal may bulk send.
    const otto = (await users()).find((u) => u.email === 'otto@acme-de.test')!;
    await api('PUT', `/users/${otto.userId}`, { permissionProfileName: 'DocuSign Sender' });
    const auditors = groups.find((g) => g.groupName === 'Auditors') as { groupId?: string };
    await api('DELETE', `/groups/${auditors.groupId}/users`, { users: [{ userId: otto.userId }] });
    await api('PUT', `/permission_profiles/${legal.permissionProfileId}`, { settings: { allowBulkSending: 'true' } });
    const drift = await cli('plan', 'acme.yaml', '--out', 'out');
    expect(drift.code, drift.stderr).toBe(0);
    expect(drift.stdout).toMatch(/changed outside +permission profile Legal/);
    expect(drift.stdout).toContain('settings.allowBulkSending: "true" → "false"');
    expect(drift.stdout).toMatch(/changed outside +user otto@acme-de\.test/);
    expect(drift.stdout).toContain('permissionProfileName: "DocuSign Sender" → "Read only"');
    expect(drift.stdout).toContain('groups: +Auditors');
    expect(drift.stdout).toMatch(/no change +user lea@acme-de\.test/);
    const putBack = await cli('run', 'acme.yaml', '--out', 'out');
    expect(putBack.code, putBack.stdout + putBack.stderr).toBe(0);
    expect(putBack.stdout + putBack.stderr).toContain('2 updated (2 changed outside signrun, put back), 5 no change');
    report = await readReport(out);
    expect(report.accounts[0]!.contents?.filter((c) => c.outcome === 'updated')).toEqual([
      expect.objectContaining({ kind: 'permissionProfile', name: 'Legal', outside: true }),
      expect.objectContaining({ kind: 'user', name: 'otto@acme-de.test', outside: true }),
    ]);
    const ottoNow = (await users()).find((u) => u.email === 'otto@acme-de.test')!;
    expect(ottoNow.permissionProfileName).toBe('Read only');
    expect(ottoNow.groupList.map((g) => g.groupName)).toEqual(['Everyone', 'Auditors']);
    expect(
      ((await api('GET', `/permission_profiles/${legal.permissionProfileId}`)) as { settings: Record<string, string> })
        .settings.allowBulkSending,
    ).toBe('false');

    // 5. state: absent closes Sam (DocuSign keeps closed users); the other two stay.
    await writeFile(path.join(dir, 'acme.yaml'), jobText('absent'));
    const removed = await cli('run', 'acme.yaml', '--out', 'out');
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    report = await readReport(out);
    expect(report.accounts[0]!.contents?.find((c) => c.name === 'sam@acme-de.test')).toMatchObject({
      outcome: 'deleted',
      id: sam.userId,
    });
    expect((await users()).map((u) => u.email).sort()).toEqual(['lea@acme-de.test', 'otto@acme-de.test']);
    expect((await users('&status=closed')).map((u) => u.email)).toEqual(['sam@acme-de.test']);
    const settled = await cli('plan', 'acme.yaml', '--out', 'out');
    expect(settled.stdout).toMatch(/already absent +user sam@acme-de\.test/);
  });

  it('two runs racing from fresh checkouts make one of each profile, group and user, and both report them', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'race', 'admin@race.test');
    const text = jobText()
      .replace('key: acme-de', `key: race\n    accountId: ${sub.accountId}\n    userId: ${sub.userId}`)
      .replace('admin@acme-de.test', 'admin@race.test');
    const [a, b] = [await tempDir('signrun-people-a-'), await tempDir('signrun-people-b-')];
    for (const dir of [a, b]) await writeFile(path.join(dir, 'acme.yaml'), text);
    // A barrier, not a sleep: the proxy holds each create until the other run's has arrived too.
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    const held: Array<() => void> = [];
    let creates = 0;
    proxy.beforeRequest = (method, url) => {
      if (method !== 'POST' || !/\/(permission_profiles|groups|users)$/.test(url)) return;
      creates += 1;
      return new Promise<void>((release) => {
        held.push(release);
        if (held.length === 2) for (const go of held.splice(0)) go();
      });
    };
    try {
      const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl, ACME_DE_PASSWORD: 'race-password' };
      const [ra, rb] = await Promise.all(
        [a, b].map((dir) => runCli(['run', 'acme.yaml', '--out', 'out'], { cwd: dir, env })),
      );
      expect(ra!.code, ra!.stdout + ra!.stderr).toBe(0);
      expect(rb!.code, rb!.stdout + rb!.stderr).toBe(0);
      expect(creates).toBe(8); // 2 profiles, 1 groups call, 1 users call: each by both runs
      const [repA, repB] = [await readReport(path.join(a, 'out')), await readReport(path.join(b, 'out'))];
      const ids = (r: typeof repA) => r.accounts[0]!.contents?.map((c) => [c.name, c.outcome, c.id]);
      expect(ids(repA)).toEqual(ids(repB));
      expect(repA.accounts[0]!.contents?.every((c) => c.outcome === 'created' && c.id)).toBe(true);
      const headers = {
        'X-DocuSign-Authentication': JSON.stringify({
          Username: sub.userId,
          Password: 'race-password',
          IntegratorKey: 'sandbox-integrator-key',
        }),
      };
      const base = `${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}`;
      const list = async (what: string) =>
        (await (await fetch(`${base}/${what}`, { headers })).json()) as Record<string, Array<Record<string, string>>>;
      expect((await list('permission_profiles')).permissionProfiles!.map((p) => p.permissionProfileName)).toHaveLength(
        5,
      );
      expect((await list('groups')).groups!).toHaveLength(4);
      expect((await list('users')).users!.map((u) => u.email).sort()).toEqual([
        'admin@race.test',
        'lea@acme-de.test',
        'otto@acme-de.test',
        'sam@acme-de.test',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('a create whose answer was lost (the service made it) leaves one profile, group and user, all reported created', async () => {
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'lost', 'admin@lost.test');
    const dir = await tempDir('signrun-people-lost-');
    await writeFile(
      path.join(dir, 'acme.yaml'),
      jobText()
        .replace('key: acme-de', `key: lost\n    accountId: ${sub.accountId}\n    userId: ${sub.userId}`)
        .replace('admin@acme-de.test', 'admin@lost.test'),
    );
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    // The first answer of each create is lost after the sandbox committed it.
    const lost = new Set<string>();
    proxy.loseAnswer = (method, url) => {
      const kind = /\/(permission_profiles|groups|users)$/.exec(url)?.[1];
      if (method !== 'POST' || !kind || lost.has(kind)) return false;
      lost.add(kind);
      return true;
    };
    try {
      const env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl, ACME_DE_PASSWORD: 'lost-password' };
      const run = await runCli(['run', 'acme.yaml', '--out', 'out'], { cwd: dir, env });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect([...lost].sort()).toEqual(['groups', 'permission_profiles', 'users']);
      const report = await readReport(path.join(dir, 'out'));
      expect(report.accounts[0]!.contents?.map((c) => c.outcome)).toEqual(Array(7).fill('created'));
      const headers = {
        'X-DocuSign-Authentication': JSON.stringify({
          Username: sub.userId,
          Password: 'lost-password',
          IntegratorKey: 'sandbox-integrator-key',
        }),
      };
      const base = `${sandbox.origin}/restapi/v2.1/accounts/${sub.accountId}`;
      const list = async (what: string) =>
        (await (await fetch(`${base}/${what}`, { headers })).json()) as Record<string, Array<Record<string, string>>>;
      expect((await list('permission_profiles')).permissionProfiles!).toHaveLength(5);
      expect((await list('groups')).groups!).toHaveLength(4);
      expect((await list('users')).users!).toHaveLength(4);
    } finally {
      await proxy.close();
    }
  });
});
