import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot } from '../helpers/run-cli.js';
import type { RunReport } from '../../src/reporters/report-json.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
/**
 * report.json's checked-in schema, compiled independently (not the code under
 * test's own validator): the reports tests check against it.
 */
export const validateReport = ajv.compile(
  JSON.parse(await readFile(path.join(repoRoot, 'schemas/report.schema.json'), 'utf8')) as object,
);

/** The secrets a run against the sandbox handles: none may appear in reports or console output. */
export const knownSecrets = ['sandbox-password', 'sandbox-distributor-password', 'sandbox-only-acme-fr-password'];

/** Environment that points the CLI at a sandbox started by the test, with its seed's credentials. */
export function sandboxEnv(sandbox: RunningSandbox): Record<string, string> {
  return {
    DOCUSIGN_ROOT_URL: sandbox.rootUrl,
    DOCUSIGN_USERNAME: 'sandbox@signrun.test',
    DOCUSIGN_PASSWORD: 'sandbox-password',
    DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key',
    DOCUSIGN_DISTRIBUTOR_CODE: 'SANDBOX-DISTRIBUTOR',
    DOCUSIGN_DISTRIBUTOR_PASSWORD: 'sandbox-distributor-password',
  };
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function readReport(outDir: string): Promise<RunReport> {
  return JSON.parse(await readFile(path.join(outDir, 'report.json'), 'utf8')) as RunReport;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every signing address written under the output folder. */
export async function signingUrls(outDir: string): Promise<string[]> {
  const urls: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === 'signing.json') {
        const record = JSON.parse(await readFile(full, 'utf8')) as { recipients: Array<{ url?: string }> };
        for (const r of record.recipients) if (r.url) urls.push(r.url);
      }
    }
  };
  await walk(outDir);
  return urls;
}

/** A job folder with one envelope per CSV row (forEach), `rows` rows, 2 documents and 2 embedded signers each. */
export async function fanOutJob(rows: number, job = 'fan-out'): Promise<string> {
  const dir = await tempDir('signrun-fanout-');
  await mkdir(path.join(dir, 'docs'));
  await mkdir(path.join(dir, 'data'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  await copyFile(
    path.join(repoRoot, 'examples/docs/company-handbook.pdf'),
    path.join(dir, 'docs/company-handbook.pdf'),
  );
  const lines = ['id,name,email,manager,managerEmail'];
  for (let i = 1; i <= rows; i += 1)
    lines.push(`E${10000 + i},Employee ${i},employee${i}@example.com,Manager ${i},manager${i}@example.com`);
  await writeFile(path.join(dir, 'data/people.csv'), `${lines.join('\n')}\n`);
  await writeFile(
    path.join(dir, 'fan-out.yaml'),
    [
      'version: 1',
      `job: ${job}`,
      'defaults:',
      '  emailSubject: Please sign',
      '  returnUrl: https://hr.example.com/done',
      '  status: sent',
      'envelopes:',
      '  - key: e-${row.id}',
      '    forEach: { csv: data/people.csv }',
      '    documents:',
      '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
      '      - { name: company-handbook.pdf, file: docs/company-handbook.pdf }',
      '    recipients:',
      '      - { name: "${row.name}", email: "${row.email}", clientUserId: "emp-${row.id}" }',
      '      - { name: "${row.manager}", email: "${row.managerEmail}", clientUserId: "mgr-${row.id}" }',
      '',
    ].join('\n'),
  );
  return dir;
}
