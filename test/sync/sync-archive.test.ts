import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, sha256, tempDir } from '../cli/run-helpers.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { sandboxApi } from '../signing/sandbox-api.js';
import { startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy.js';

// Issue 24 item 2, through the CLI against a real sandbox: sync collects a
// completed envelope with one download (its archive) and its form data from
// the status listing's recipients and tabs (issue 37: no read), writes the same
// files at the same paths with the same sha256 as the service's own
// documents, and spends no call at all on an envelope whose state did not
// change. An archive whose files go by other names (a proxy renames them:
// the sandbox never does) is not guessed at: each document is downloaded.

let sandbox: RunningSandbox;
let proxy: HostileProxy;
let dir: string;
let out: string;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  proxy = await startHostileProxy(sandbox.origin);
  env = { ...sandboxEnv(sandbox), DOCUSIGN_ROOT_URL: proxy.rootUrl };
  dir = await tempDir('signrun-sync-archive-');
  out = path.join(dir, 'out');
  await mkdir(path.join(dir, 'docs'));
  for (const file of ['offer-letter.pdf', 'renewal-terms.pdf'])
    await copyFile(path.join(repoRoot, 'examples/docs', file), path.join(dir, 'docs', file));
  const envelope = (key: string) => [
    `  - key: ${key}`,
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    // No .pdf in its name: the archive's file is `Renewal terms.pdf`, the output `2-Renewal-terms.pdf`.
    '      - { name: Renewal terms, file: docs/renewal-terms.pdf }',
    '    recipients:',
    `      - name: Signer ${key}`,
    `        email: ${key}@example.com`,
    `        clientUserId: c-${key}`,
    '        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
  ];
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      'job: offers',
      'defaults: { emailSubject: Please sign, status: sent, returnUrl: "https://example.com/done" }',
      'envelopes:',
      ...envelope('alice'),
      ...envelope('bruno'),
      ...envelope('chloe'),
      '',
    ].join('\n'),
  );
  const sent = await runCli(['run', dir, '--out', out], { env });
  expect(sent.code, sent.stdout + sent.stderr).toBe(0);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

async function sign(key: string): Promise<void> {
  const signing = JSON.parse(await readFile(path.join(out, 'offers', key, 'signing.json'), 'utf8')) as SigningRecord;
  expect(await signOverHttp(signing.recipients[0]!.url!, `Signer ${key}`)).toBe('signing_complete');
}

const record = async (key: string) =>
  JSON.parse(await readFile(path.join(out, 'offers', key, 'envelope.json'), 'utf8')) as EnvelopeRecord;

/** The envelope's collected files hold the service's completed documents, byte for byte, at the promised paths. */
async function expectCollected(key: string): Promise<void> {
  const r = await record(key);
  expect(r.status).toBe('completed');
  expect(r.files.map((f) => f.path)).toEqual([
    `offers/${key}/certificate.pdf`,
    `offers/${key}/documents/1-offer-letter.pdf`,
    `offers/${key}/documents/2-Renewal-terms.pdf`,
    `offers/${key}/form-data.json`,
  ]);
  const api = sandboxApi(sandbox.rootUrl);
  for (const file of r.files) {
    const bytes = await readFile(path.join(out, file.path));
    expect(sha256(bytes), file.path).toBe(file.sha256);
    expect(bytes.length).toBe(file.size);
    const documentId = /documents\/(\d+)-/.exec(file.path)?.[1];
    if (documentId) expect(sha256(await api.document(r.envelopeId, documentId))).toBe(file.sha256);
  }
  const certificate = await readFile(path.join(out, `offers/${key}/certificate.pdf`));
  expect(certificate.subarray(0, 5).toString()).toBe('%PDF-');
  // The journal records the same files with the same sha256 (what a later run trusts).
  const journal = (await readFile(path.join(out, '.signrun', 'journal.jsonl'), 'utf8'))
    .split('\n')
    .filter((l) => l.includes('"step":"collected"') && l.includes(`"offers/${key}"`))
    .map((l) => JSON.parse(l) as { files: Array<{ path: string; sha256: string }> });
  expect(journal).toHaveLength(1);
  expect(journal[0]!.files.map((f) => [f.path, f.sha256]).sort()).toEqual(
    r.files.map((f) => [f.path, f.sha256]).sort(),
  );
}

/** The calls of the last sync, from its report: per operation, and what is neither login nor listing. */
async function lastSyncCalls(): Promise<{ byOperation: Record<string, number>; perEnvelope: number }> {
  const report = await readReport(out);
  const byOperation = report.api.byOperation;
  const perEnvelope = report.api.calls - (byOperation['loginInformation'] ?? 0) - (byOperation['listEnvelopes'] ?? 0);
  return { byOperation, perEnvelope };
}

describe('sync collects a completed envelope in one download', () => {
  it('one archive per completed envelope (form data from the listing), the same files and sha256, none for the unchanged', async () => {
    await sign('alice');
    await sign('bruno');
    const first = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const calls = await lastSyncCalls();
    // Two completed envelopes: one archive each for documents and certificate, form data from the
    // listing; no list of documents, no download per document, no certificate download, no read of recipients.
    expect(calls.byOperation).toMatchObject({ downloadArchive: 2 });
    for (const op of ['listDocuments', 'downloadDocument', 'downloadCertificate', 'getEnvelope', 'listRecipients'])
      expect(calls.byOperation[op], op).toBeUndefined();
    expect(calls.perEnvelope).toBe(2);
    expect(calls.byOperation['listEnvelopes']).toBe(1);
    await expectCollected('alice');
    await expectCollected('bruno');
    const formData = JSON.parse(await readFile(path.join(out, 'offers/alice/form-data.json'), 'utf8')) as {
      status: string;
    };
    expect(formData.status).toBe('completed');
    expect((await record('chloe')).status).toBe('sent');

    // Nothing changed since: the listing, and not one call for any envelope.
    const before = await record('alice');
    const second = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect((await lastSyncCalls()).perEnvelope).toBe(0);
    expect((await record('alice')).files).toEqual(before.files);
  }, 120_000);

  it('downloads each document instead when the archive’s names do not say which file is which', async () => {
    await sign('chloe');
    proxy.mode = 'renamed-archive';
    try {
      const third = await runCli(['sync', dir, '--out', out, '--force'], { env });
      expect(third.code, third.stdout + third.stderr).toBe(0);
    } finally {
      proxy.mode = 'pass';
    }
    const calls = await lastSyncCalls();
    // The archive, then the envelope's own documents listing (the authority on names), then
    // one download per document and the certificate: 2 + N + 1 calls, the way before archives.
    expect(calls.byOperation).toMatchObject({
      downloadArchive: 1,
      listDocuments: 1,
      downloadDocument: 2,
      downloadCertificate: 1,
    });
    await expectCollected('chloe');
  }, 120_000);
});
