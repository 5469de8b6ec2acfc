import { copyFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, repoRoot } from '../helpers/run-cli.js';
import { examplesCopy } from '../helpers/examples-copy.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import {
  fanOutJob,
  knownSecrets,
  readReport,
  sandboxEnv,
  sha256,
  signingUrls,
  tempDir,
  validateReport,
} from './run-helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

async function envelopesOnService(): Promise<number> {
  const client = EsignatureClient.create({
    rootUrl: sandbox.rootUrl,
    auth: sandboxSeedAuth(),
  });
  try {
    const account = await client.login();
    return (await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' })).envelopes?.length ?? 0;
  } finally {
    client.close();
  }
}

async function assertOutputsConsistent(outDir: string, console: string): Promise<void> {
  const report = await readReport(outDir);
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  for (const item of [...report.envelopes, ...report.accounts]) {
    for (const file of item.files) {
      const bytes = await readFile(path.join(outDir, file.path));
      expect(bytes.length).toBe(file.size);
      expect(sha256(bytes)).toBe(file.sha256);
      if (file.path.endsWith('signing.json'))
        expect((await stat(path.join(outDir, file.path))).mode & 0o777).toBe(0o600);
    }
  }
  const urls = await signingUrls(outDir);
  const reports = ['report.json', 'report.md', 'junit.xml'].map((f) => readFile(path.join(outDir, f), 'utf8'));
  const text = (await Promise.all(reports)).join('\n') + console;
  for (const secret of knownSecrets) expect(text).not.toContain(secret);
  for (const url of urls) {
    expect(text).not.toContain(url);
    expect(text).not.toContain(url.split('/signing/')[1] ?? url);
  }
}

describe('signrun run (real CLI, real sandbox over HTTP)', () => {
  it('runs every example with no root URL: starts the sandbox in-process and says so first', async () => {
    const outDir = await tempDir('signrun-cli-out-');
    // Every example job, each CSV cut to its first 3 rows (issue 38): every job's
    // path runs (and renewal-E1001 is row 1); rows 4 to 50 only repeated those calls.
    const result = await runCli(['run', examplesCopy(3), '--out', outDir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/sandbox in-process at http:\/\/127\.0\.0\.1:\d+\/restapi\/v2/);
    const report = await readReport(outDir);
    expect(report.target.sandbox).toBe(true);
    expect(report.totals.envelopes.failed).toBe(0);
    expect(report.totals.envelopes.succeeded).toBe(report.totals.envelopes.total);
    expect(report.totals.envelopes.total).toBeGreaterThanOrEqual(4);
    expect(report.accounts.every((a) => a.outcome === 'created')).toBe(true);
    // The distributor path's account waits for its administrator; the organisation's (Admin API) are active at once.
    const awaiting = report.accounts.filter((a) => a.awaitingActivation).map((a) => `${a.job}/${a.key}`);
    expect(awaiting).toEqual(['subsidiary-acme-france/acme-fr']);
    expect(result.stdout).toContain(outDir);
    await assertOutputsConsistent(outDir, result.stdout + result.stderr);
    // Every job of examples/ appears in the report.
    const jobs = new Set([...report.envelopes, ...report.accounts].map((i) => i.job));
    expect(jobs.size).toBeGreaterThanOrEqual(4);
    // Who is to sign is named from the first run on, before any sync (template roles filled from the CSV too).
    const renewal = report.envelopes.find((e) => e.key === 'renewal-E1001');
    expect(renewal?.recipients.map((r) => r.name)).toEqual(['Jean Français', 'Claire Dubois']);
    expect(report.envelopes.every((e) => e.recipients.every((r) => r.name && r.email))).toBe(true);
    expect(result.stdout).toContain('renewal-E1001: Jean Français <jean.francais@example.com> sent');
  });

  it('against a configured service: every sha256 equals the bytes the service serves', async () => {
    const outDir = await tempDir('signrun-cli-out-');
    const result = await runCli(
      [
        'run',
        'examples/embedded-signing.yaml',
        'examples/template-contract.yaml',
        '--out',
        outDir,
        '--documents',
        'at-send',
      ],
      { env: sandboxEnv(sandbox) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).not.toMatch(/in-process/);
    await assertOutputsConsistent(outDir, result.stdout + result.stderr);
    const report = await readReport(outDir);
    const client = EsignatureClient.create({
      rootUrl: sandbox.rootUrl,
      auth: sandboxSeedAuth(),
    });
    const account = await client.login();
    let compared = 0;
    for (const envelope of report.envelopes) {
      for (const file of envelope.files.filter((f) => f.path.endsWith('.pdf') && !f.path.endsWith('certificate.pdf'))) {
        const documentId = /documents\/([^-]+)-/.exec(file.path)?.[1] ?? '';
        const served = await account.client.request({
          method: 'GET',
          url: `${account.baseUrl}/envelopes/${envelope.envelopeId}/documents/${documentId}`,
          operation: 'test',
          responseType: 'stream',
        });
        const chunks: Buffer[] = [];
        for await (const chunk of served.stream ?? []) chunks.push(chunk as Buffer);
        expect(sha256(Buffer.concat(chunks))).toBe(file.sha256);
        compared += 1;
      }
    }
    client.close();
    expect(compared).toBeGreaterThanOrEqual(3);
  });

  // 48 rows at concurrency 16: three rounds, so envelopes finish out of row
  // order and the spool must put them back (issue 38: from 200; a run at scale
  // is bench/run/run-bench.mjs).
  it('a 48-envelope CSV fan-out: all sent, report valid, API calls per envelope reported', async () => {
    const rows = 48;
    const dir = await fanOutJob(rows);
    const outDir = path.join(dir, 'out');
    const before = await envelopesOnService();
    const result = await runCli(['run', '.', '--concurrency', '16'], {
      cwd: dir,
      env: sandboxEnv(sandbox),
    });
    expect(result.code, result.stderr).toBe(0);
    const report = await readReport(outDir);
    expect(report.totals.envelopes).toMatchObject({ total: rows, succeeded: rows, failed: 0 });
    expect(report.concurrency).toBe(16);
    expect(new Set(report.envelopes.map((e) => e.envelopeId)).size).toBe(rows);
    // Finished out of order at concurrency 16, reported in row order; the results spool left nothing behind.
    expect(report.envelopes.map((e) => e.row)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    expect((await readdir(outDir)).filter((f) => f.startsWith('.signrun-results'))).toEqual([]);
    // Draft, send, 2 views (documents on completion); the listings that confirm drafts are shared, counted by the run.
    expect(report.envelopes.every((e) => e.apiCalls === 4)).toBe(true);
    expect(report.api.calls / rows).toBeLessThanOrEqual(5);
    expect(report.api.byOperation['createEnvelope']).toBe(rows);
    expect(await envelopesOnService()).toBe(before + rows);
    await assertOutputsConsistent(outDir, result.stdout + result.stderr);
    const junit = await readFile(path.join(outDir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(rows);
  });

  it('invalid input: exit 2 with the code, nothing sent, only the reports naming the cause written', async () => {
    const dir = await fanOutJob(3, 'broken');
    const file = path.join(dir, 'fan-out.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace('emailSubject: Please sign', 'emailSubjet: Please sign'),
    );
    const before = await envelopesOnService();
    const result = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/fan-out\.yaml:\d+:\d+/);
    expect(result.stderr).toMatch(/SR_[A-Z_]+/);
    expect(await envelopesOnService()).toBe(before);
    // Issue 26, CI on every exit: report.md and junit.xml say why, and nothing else is written.
    expect((await readdir(path.join(dir, 'out'))).sort()).toEqual(['junit.xml', 'report.md']);
  });

  it('a template roleName the template lacks: exit 2 before anything is sent', async () => {
    const dir = await tempDir('signrun-tpl-');
    // The example's returnUrl comes from its folder's .env: the copy takes it along.
    await copyFile(path.join(repoRoot, 'examples/.env'), path.join(dir, '.env'));
    await writeFile(
      path.join(dir, 'tpl.yaml'),
      (await readFile(path.join(repoRoot, 'examples/template-contract.yaml'), 'utf8')).replace(
        'roleName: employer',
        'roleName: manager',
      ),
    );
    const before = await envelopesOnService();
    const result = await runCli(['run', 'tpl.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SR_TEMPLATE_ROLE_MISSING');
    expect(result.stderr).toMatch(/tpl\.yaml:\d+:\d+/);
    expect(await envelopesOnService()).toBe(before);
  });

  it('a role tab filling a label the template lacks: plan and run exit 2 before anything is sent', async () => {
    const dir = await tempDir('signrun-tpl-label-');
    await copyFile(path.join(repoRoot, 'examples/.env'), path.join(dir, '.env'));
    await writeFile(
      path.join(dir, 'tpl.yaml'),
      (await readFile(path.join(repoRoot, 'examples/template-contract.yaml'), 'utf8')).replace(
        '        clientUserId: emp-0107\n',
        '        clientUserId: emp-0107\n        tabs: { textTabs: [{ tabLabel: salary, value: "62000", locked: true }] }\n',
      ),
    );
    const before = await envelopesOnService();
    // plan says it first, having read the template.
    const planned = await runCli(['plan', 'tpl.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stderr).toMatch(
      /tpl\.yaml:\d+:\d+.*SR_TEMPLATE_TAB_LABEL_MISSING|SR_TEMPLATE_TAB_LABEL_MISSING[\s\S]*tpl\.yaml:\d+/,
    );
    const result = await runCli(['run', 'tpl.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_TEMPLATE_TAB_LABEL_MISSING');
    expect(result.stderr).toContain('no tab labelled "salary"');
    expect(result.stderr).toMatch(/tpl\.yaml:\d+:\d+/);
    expect(await envelopesOnService()).toBe(before);
  });

  it('shards split the work exactly; report merge combines them into one valid report', async () => {
    const dir = await fanOutJob(30, 'sharded');
    const before = await envelopesOnService();
    const one = await runCli(['run', '.', '--shard', '1/2', '--out', 'out1'], { cwd: dir, env: sandboxEnv(sandbox) });
    const two = await runCli(['run', '.', '--shard', '2/2', '--out', 'out2'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect([one.code, two.code]).toEqual([0, 0]);
    const r1 = await readReport(path.join(dir, 'out1'));
    const r2 = await readReport(path.join(dir, 'out2'));
    expect(r1.totals.envelopes.total + r2.totals.envelopes.total).toBe(30);
    expect(r1.totals.envelopes.total).toBeGreaterThan(0);
    expect(await envelopesOnService()).toBe(before + 30);
    const merged = await runCli(['report', 'merge', 'out1', 'out2/report.json', '--out', 'merged'], { cwd: dir });
    expect(merged.code, merged.stderr).toBe(0);
    const report = await readReport(path.join(dir, 'merged'));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.totals.envelopes).toMatchObject({ total: 30, succeeded: 30 });
    expect(new Set(report.envelopes.map((e) => e.key)).size).toBe(30);
    expect(report.mergedFrom?.sort()).toEqual([r1.runId, r2.runId].sort());
    expect(report.api.calls).toBe(r1.api.calls + r2.api.calls);
    const bad = await runCli(['report', 'merge', 'fan-out.yaml', '--out', 'merged2'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SR_REPORT_INVALID');
  });

  it('credentials: none needed for a local signrun serve; a remote root URL without them is exit 2 before any call', async () => {
    const local = await runCli(['run', 'examples/template-contract.yaml', '--out', await tempDir('signrun-cli-out-')], {
      env: { DOCUSIGN_ROOT_URL: sandbox.rootUrl },
    });
    expect(local.code, local.stderr).toBe(0);
    const remote = await runCli(
      ['run', 'examples/template-contract.yaml', '--out', await tempDir('signrun-cli-out-')],
      {
        env: {
          DOCUSIGN_ROOT_URL: 'https://demo.docusign.invalid/restapi/v2',
          DOCUSIGN_USERNAME: 'someone@example.com',
        },
      },
    );
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('SR_CREDENTIALS_MISSING');
  });

  it('plan shows what a run would do, from the journal of an earlier run', async () => {
    const dir = await fanOutJob(3, 'planned');
    const first = await runCli(['plan', '.', '--format', 'json'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(first.code, first.stderr).toBe(0);
    const before = JSON.parse(first.stdout) as {
      items: Array<{ decision: { action: string }; apiCalls: number }>;
      totalApiCalls: number;
      listingCalls: number;
    };
    expect(before.items.map((i) => i.decision.action)).toEqual(['create', 'create', 'create']);
    // login, the job's listing, one listing to confirm the drafts (estimated), draft + send + 2 views each
    expect(before.totalApiCalls).toBe(1 + 1 + 1 + 3 * 4);
    const ran = await runCli(['run', '.'], { cwd: dir, env: sandboxEnv(sandbox) });
    const report = await readReport(path.join(dir, 'out'));
    expect(report.envelopes.map((e) => e.apiCalls)).toEqual(before.items.map((i) => i.apiCalls));
    // The drafts' confirmations share listings: one, or two when a draft was answered after the first listing started.
    expect(report.api.calls - before.totalApiCalls).toBeGreaterThanOrEqual(0);
    expect(report.api.calls - before.totalApiCalls).toBeLessThanOrEqual(2);
    expect(ran.code).toBe(0);
    const after = JSON.parse(
      (await runCli(['plan', '.', '--format', 'json'], { cwd: dir, env: sandboxEnv(sandbox) })).stdout,
    ) as typeof before;
    expect(after.items.map((i) => i.decision.action)).toEqual(['up-to-date', 'up-to-date', 'up-to-date']);
    // Addresses still valid (the journal says until when): a re-run asks for nothing but the login and the listing.
    expect(after.items.map((i) => i.apiCalls)).toEqual([0, 0, 0]);
    const rerun = await runCli(['run', '.'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((await readReport(path.join(dir, 'out'))).api.calls).toBe(after.totalApiCalls);
  });
});
