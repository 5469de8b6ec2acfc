import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from './run-helpers.js';
import { batchesOf, bulkJob, envelopeIdWritten, envelopesPerIdentity } from './bulk-send-fixtures.js';

// `run --bulk-send` (issue 24, item 3), the real CLI against the real
// sandbox over HTTP: 30 rows in lists of 7 (five lists, five batches), each
// copy found by its identity and written out as any envelope; a re-run
// sends nothing; rows that cannot be copies of one model are refused offline.

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('run --bulk-send', () => {
  it('sends 30 rows as five bulk send lists: one envelope per key, with its own recipients, tab value and custom fields; a re-run sends nothing', async () => {
    const job = 'bulk-thirty';
    const dir = await bulkJob(30, job);
    const out = await tempDir('signrun-bulk-out-');
    const args = ['run', path.join(dir, 'offers.yaml'), '--out', out, '--bulk-send', '--bulk-list-size', '7'];
    const first = await runCli([...args, '--signing-urls', 'on-demand'], { env: sandboxEnv(sandbox) });
    expect(first.code, first.stderr).toBe(0);

    const batches = batchesOf(sandbox, job);
    expect(batches.map((b) => b.size)).toEqual([7, 7, 7, 7, 2]);
    const per = envelopesPerIdentity(sandbox, job);
    expect(per.size).toBe(30);
    for (const [identity, ids] of per) expect(ids, identity).toHaveLength(1);

    const report = await readReport(out);
    expect(report.envelopes).toHaveLength(30);
    expect(report.envelopes.every((e) => e.outcome === 'succeeded' && e.adopted !== true)).toBe(true);
    // The bulk path's calls: one model, five lists, five sends, a look at each batch, the model deleted.
    const byOperation = report.api?.byOperation ?? {};
    expect(byOperation['createEnvelope']).toBe(1);
    expect(byOperation['createBulkSendList']).toBe(5);
    expect(byOperation['sendBulkSendList']).toBe(5);
    expect(byOperation['sendDraft']).toBeUndefined();

    // Row 12's envelope: written out under its key, and on the service with row 12's values.
    const id = await envelopeIdWritten(out, job, 'e-E10012');
    expect(per.get(`${job}/e-E10012`)).toEqual([id]);
    const { db } = sandbox.app.sandbox;
    const signer = db
      .prepare(
        `SELECT name, email, client_user_id AS clientUserId, tabs_json AS tabs FROM recipients WHERE envelope_id = ? AND recipient_id = '1'`,
      )
      .get(id) as { name: string; email: string; clientUserId: string; tabs: string };
    expect(signer).toMatchObject({ name: 'Employee 12', email: 'employee12@example.com', clientUserId: 'emp-E10012' });
    expect(JSON.parse(signer.tabs).textTabs[0]).toMatchObject({ tabLabel: 'employeeId', value: 'E10012' });
    const subject = db.prepare('SELECT email_subject AS s FROM envelopes WHERE id = ?').get(id) as { s: string };
    expect(subject.s).toBe('Offer for Employee 12');
    const field = db
      .prepare(`SELECT value FROM envelope_custom_fields WHERE envelope_id = ? AND name = 'employeeId'`)
      .get(id) as { value: string };
    expect(field.value).toBe('E10012');
    // The embedded signer is listed in signing.json, to be given an address when they arrive.
    const signing = JSON.parse(await readFile(path.join(out, job, 'e-E10012', 'signing.json'), 'utf8')) as {
      recipients: Array<{ clientUserId?: string }>;
    };
    expect(signing.recipients.some((r) => r.clientUserId === 'emp-E10012')).toBe(true);
    // The model (a draft) was deleted once its batches were done.
    const models = db
      .prepare(
        `SELECT COUNT(*) AS n FROM envelopes e JOIN envelope_custom_fields f ON f.envelope_id = e.id
         WHERE f.name = 'signrun' AND f.value = ? AND e.status != 'deleted'`,
      )
      .get(`${job}#bulk-model`) as { n: number };
    expect(models.n).toBe(0);

    const again = await runCli([...args, '--signing-urls', 'on-demand'], { env: sandboxEnv(sandbox) });
    expect(again.code, again.stderr).toBe(0);
    expect(batchesOf(sandbox, job)).toHaveLength(5);
    expect(envelopesPerIdentity(sandbox, job).size).toBe(30);
    const second = await readReport(out);
    expect(second.api?.byOperation?.['sendBulkSendList']).toBeUndefined();
  });

  it('takes bulkSend: true from the job file, without the option', async () => {
    const job = 'bulk-in-file';
    const dir = await bulkJob(3, job, { bulkSendInFile: true });
    const out = await tempDir('signrun-bulk-out-');
    const result = await runCli(['run', path.join(dir, 'offers.yaml'), '--out', out], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    expect(batchesOf(sandbox, job).map((b) => b.size)).toEqual([3]);
    expect(envelopesPerIdentity(sandbox, job).size).toBe(3);
  });

  it('refuses, before any call, rows that differ in what a copy cannot change (here the place of a tab), at the envelope line', async () => {
    const job = 'bulk-unfit';
    const dir = await bulkJob(4, job);
    const file = path.join(dir, 'offers.yaml');
    // The sign-here tab moves with the row: every copy of one model has its tabs in one place.
    const text = (await readFile(file, 'utf8')).replace('yPosition: 100 }', 'yPosition: "${row.id}" }');
    await writeFile(file, text);
    await writeFile(
      path.join(dir, 'people.csv'),
      'id,name,email\n101,A,a@example.com\n102,B,b@example.com\n103,C,c@example.com\n',
    );
    const before = sandbox.app.sandbox.db.prepare('SELECT COUNT(*) AS n FROM envelopes').get() as { n: number };
    const result = await runCli(['run', file, '--out', await tempDir('signrun-bulk-out-'), '--bulk-send'], {
      env: sandboxEnv(sandbox),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SR_BULK_SEND_UNFIT');
    expect(result.stderr).toMatch(/offers\.yaml:6:5/);
    expect(result.stderr).toContain('recipients[0].tabs[0].place.yPosition');
    // What to type next: the code's hint.
    expect(result.stderr).toContain('hint: ');
    expect(result.stderr).toContain('without --bulk-send');
    const after = sandbox.app.sandbox.db.prepare('SELECT COUNT(*) AS n FROM envelopes').get() as { n: number };
    expect(after.n).toBe(before.n);

    // With `bulkSend: true` in the file, `validate` (offline) refuses it too.
    await writeFile(
      file,
      text.replace('    forEach: { csv: people.csv }', '    forEach: { csv: people.csv }\n    bulkSend: true'),
    );
    const validated = await runCli(['validate', file]);
    expect(validated.code).toBe(2);
    expect(validated.stdout).toContain('SR_BULK_SEND_UNFIT');
  });
});
