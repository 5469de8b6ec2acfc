import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir } from './run-helpers.js';

/**
 * A job folder with one forEach envelope of `rows` CSV rows fit for Bulk
 * Send: one document, an embedded signer per row with a labelled text tab
 * holding the row's id, a fixed carbon copy, a custom field per row.
 * `bulkSend: true` in the file when asked (else `run --bulk-send` says so).
 */
export async function bulkJob(rows: number, job: string, options: { bulkSendInFile?: boolean } = {}): Promise<string> {
  const dir = await tempDir('signrun-bulk-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  const lines = ['id,name,email'];
  for (let i = 1; i <= rows; i += 1) lines.push(`E${10000 + i},Employee ${i},employee${i}@example.com`);
  await writeFile(path.join(dir, 'people.csv'), `${lines.join('\n')}\n`);
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      `job: ${job}`,
      'defaults:',
      '  returnUrl: https://hr.example.com/done',
      'envelopes:',
      '  - key: e-${row.id}',
      '    forEach: { csv: people.csv }',
      ...(options.bulkSendInFile ? ['    bulkSend: true'] : []),
      '    emailSubject: "Offer for ${row.name}"',
      '    customFields: [{ name: employeeId, value: "${row.id}" }]',
      '    documents:',
      '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
      '    recipients:',
      '      - name: "${row.name}"',
      '        email: "${row.email}"',
      '        clientUserId: "emp-${row.id}"',
      '        tabs:',
      '          signHereTabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
      '          textTabs: [{ tabLabel: employeeId, value: "${row.id}", documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 200 }]',
      '      - { name: HR, email: hr@example.com }',
      '',
    ].join('\n'),
  );
  return dir;
}

/** Envelopes on the service per identity custom field, for one job (drafts in the recycle bin left out), from the sandbox's database. */
export function envelopesPerIdentity(sandbox: RunningSandbox, job: string): Map<string, string[]> {
  const rows = sandbox.app.sandbox.db
    .prepare(
      `SELECT f.value AS identity, e.id AS id FROM envelopes e
       JOIN envelope_custom_fields f ON f.envelope_id = e.id AND f.name = 'signrun'
       JOIN envelope_custom_fields j ON j.envelope_id = e.id AND j.name = 'signrunJob' AND j.value = ?
       WHERE e.status != 'deleted'`,
    )
    .all(job) as Array<{ identity: string; id: string }>;
  const per = new Map<string, string[]>();
  for (const r of rows) per.set(r.identity, [...(per.get(r.identity) ?? []), r.id]);
  return per;
}

/** The batches the sandbox holds whose name says they are this job's (signrun names them `signrun/<job>/…`). */
export function batchesOf(sandbox: RunningSandbox, job: string): Array<{ name: string; size: number }> {
  return sandbox.app.sandbox.db
    .prepare(`SELECT name, size FROM bulk_send_batches WHERE name LIKE ? ORDER BY submitted_at`)
    .all(`signrun/${job}/%`) as Array<{ name: string; size: number }>;
}

/** envelope.json's envelopeId of a key. */
export async function envelopeIdWritten(out: string, job: string, key: string): Promise<string> {
  const record = JSON.parse(await readFile(path.join(out, job, key, 'envelope.json'), 'utf8')) as {
    envelopeId: string;
  };
  return record.envelopeId;
}
