import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { Plan, PlanItem } from '../../src/runner/plan-types.js';
import { fanOutJob, readReport, sandboxEnv } from './run-helpers.js';

let sandbox: RunningSandbox;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-plan-data-'));
  sandbox = await startSandbox({ port: 0, quiet: true, dataDir });
});
afterAll(async () => {
  await sandbox.close();
});

/** Every row of every table of the sandbox's database, hashed: the plan must leave it as it was. */
function databaseDigest(): string {
  const db = new Database(path.join(dataDir, 'sandbox.sqlite'), { readonly: true });
  try {
    const hash = createHash('sha256');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string;
    }>;
    for (const { name } of tables) {
      hash.update(name);
      for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).iterate())
        hash.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

const envelopeIdOf = (item: PlanItem) => ('envelopeId' in item.decision ? item.decision.envelopeId : undefined);

async function plan(dir: string, out: string): Promise<Plan> {
  const result = await runCli(['plan', '.', '--out', out, '--format', 'json'], { cwd: dir, env: sandboxEnv(sandbox) });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Plan;
}

describe('signrun plan against the target', () => {
  it('create, adopt (found on the service), up to date (outputs or journal), drift; read-only; a run then makes the calls it planned', async () => {
    const dir = await fanOutJob(4, 'plan-target');
    const first = await runCli(['run', '.', '--out', 'out1'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(first.code, first.stderr).toBe(0);
    const before = databaseDigest();

    // Fresh outputs and state: the service holds all four, so a run would adopt them.
    const elsewhere = await plan(dir, 'out2');
    expect(elsewhere.items.map((i) => i.decision.action)).toEqual(Array(4).fill('adopt'));
    expect(existsSync(path.join(dir, 'out2'))).toBe(false);
    const sent = (await readReport(path.join(dir, 'out1'))).envelopes.map((e) => e.envelopeId);
    expect(elsewhere.items.map(envelopeIdOf)).toEqual(sent);

    // The state of the run that sent them: up to date, from the journal alone (outputs are not inputs).
    await rm(path.join(dir, 'out1/plan-target/e-E10002/envelope.json'));
    const here = await plan(dir, 'out1');
    expect(here.items.map((i) => i.decision.action)).toEqual(Array(4).fill('up-to-date'));

    // One row changed (drift), one added (create).
    const csv = path.join(dir, 'data/people.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('Employee 1,', 'Employee One,'));
    await appendFile(csv, 'E10005,Employee 5,employee5@example.com,Manager 5,manager5@example.com\n');
    const changed = await plan(dir, 'out2');
    expect(changed.items.map((i) => i.decision.action)).toEqual(['drift', 'adopt', 'adopt', 'adopt', 'create']);
    expect(envelopeIdOf(changed.items[0]!)).toBe(sent[0]);
    expect(databaseDigest()).toBe(before);
    expect(existsSync(path.join(dir, 'out2'))).toBe(false);

    // The run does what the plan said, with the calls it counted.
    const ran = await runCli(['run', '.', '--out', 'out2'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(ran.code).toBe(1);
    const report = await readReport(path.join(dir, 'out2'));
    expect(report.envelopes.map((e) => e.error?.code ?? e.outcome)).toEqual([
      'SR_ENVELOPE_DRIFT',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(report.envelopes.map((e) => e.adopted === true)).toEqual([false, true, true, true, false]);
    // The summary says which were not sent by this run.
    expect(ran.stdout).toContain(
      '4 envelopes sent or adopted (3 of them by an earlier run or one running alongside: adopted, not sent again), 1 failed',
    );
    expect(report.api.byOperation['createEnvelope']).toBe(1);
    // As planned, give or take a listing confirming the one draft (the estimate counts one).
    expect(Math.abs(report.api.calls - changed.totalApiCalls)).toBeLessThanOrEqual(1);
  });

  it('with no root URL configured: the in-process sandbox starts empty, so everything is create and nothing is asked', async () => {
    const dir = await fanOutJob(2, 'plan-offline');
    const result = await runCli(['plan', '.'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/in-process sandbox/);
    expect(result.stdout).toMatch(/2 to create, 0 to adopt/);
  });

  it('accounts: one the service has (asked by its id) is up to date, a new one is create; read-only', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'signrun-plan-accounts-'));
    const account = (key: string) =>
      [
        `  - key: ${key}`,
        '    state: present',
        `    accountName: Plan ${key}`,
        `    initialUser: { email: admin@${key}.example.com, firstName: Ada, lastName: Martin, password: "\${env.PLAN_PW}" }`,
        '    planInformation: { planId: sandbox-plan }',
      ].join('\n');
    await writeFile(
      path.join(dir, 'accounts.yaml'),
      ['version: 1', 'job: plan-accounts', 'accounts:', account('kept')].join('\n') + '\n',
    );
    const env = { ...sandboxEnv(sandbox), PLAN_PW: 'pw-plan-secret' };
    const ran = await runCli(['run', '.'], { cwd: dir, env });
    expect(ran.code, ran.stderr).toBe(0);
    const before = databaseDigest();
    await appendFile(path.join(dir, 'accounts.yaml'), account('new') + '\n');
    const result = await runCli(['plan', '.', '--format', 'json'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    const planned = JSON.parse(result.stdout) as Plan;
    // The plan read the kept account (its id from the journal): the run has nothing left to ask.
    expect(planned.items.map((i) => [i.key, i.decision.action, i.apiCalls])).toEqual([
      ['kept', 'up-to-date', 0],
      // claim (a draft), create, note the account on the claim
      ['new', 'create', 3],
    ]);
    expect(databaseDigest()).toBe(before);
  });
});
