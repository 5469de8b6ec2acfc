import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, sha256, tempDir } from '../cli/run-helpers.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { accountId, sandboxApi, seedAuth } from '../signing/sandbox-api.js';

// Issue 35: a document whose name has a character beyond Latin-1 made every
// route that names it in Content-Disposition answer 500 ERR_INVALID_CHAR
// (Node refuses such a header). Over real HTTP (the socket is the subject:
// Node checks headers as it writes them), the name now travels in
// `filename*` (RFC 6266, RFC 5987) with an ASCII stand-in in `filename`.

const names = ['Vertrag – 2024.pdf', '合同.pdf'];

let sandbox: RunningSandbox;
let pdf: Buffer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  pdf = Buffer.from(await samplePdf('the contract', 1));
});
afterAll(async () => {
  await sandbox?.close();
});

/** The file name a client reads from Content-Disposition: `filename*` (UTF-8) when given, else `filename`. */
function filenameOf(header: string | null): string | undefined {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '');
  if (extended) return decodeURIComponent(extended[1]!);
  return /filename="([^"]*)"/.exec(header ?? '')?.[1];
}

async function download(
  url: string,
): Promise<{ status: number; name: string | undefined; header: string; bytes: Buffer }> {
  const res = await fetch(url, { headers: { 'x-docusign-authentication': seedAuth } });
  const header = res.headers.get('content-disposition') ?? '';
  return { status: res.status, name: filenameOf(header), header, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('documents named beyond Latin-1', () => {
  it('an envelope’s documents download with their names (GET …/documents/{documentId}, as sync downloads them)', async () => {
    const api = sandboxApi(sandbox.rootUrl);
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Vertrag',
      status: 'created',
      documents: names.map((name, i) => ({
        documentId: String(i + 1),
        name,
        fileExtension: 'pdf',
        documentBase64: pdf.toString('base64'),
      })),
      recipients: { signers: [{ recipientId: '1', name: 'Jörg Ölmann', email: 'joerg@example.com' }] },
    });
    for (const [i, name] of names.entries()) {
      const got = await download(`${sandbox.rootUrl}/accounts/${accountId}/envelopes/${envelopeId}/documents/${i + 1}`);
      expect(got.status, got.header).toBe(200);
      expect(got.name).toBe(name);
      // The plain `filename` every client reads holds only printable ASCII.
      expect(/filename="([\x20-\x7e]*)"/.test(got.header)).toBe(true);
      expect(sha256(got.bytes)).toBe(sha256(pdf));
    }
  });

  it('a template’s documents download with their names, and `import template` keeps them', async () => {
    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
    const account = await client.login();
    const { templateId } = await account.createTemplate({
      name: 'Vertrag 2024',
      emailSubject: 'Bitte unterschreiben',
      customFields: { textCustomFields: [] },
      documents: names.map((name, i) => ({
        documentId: String(i + 1),
        name,
        fileExtension: 'pdf',
        documentBase64: pdf.toString('base64'),
      })),
      recipients: {
        signers: [
          {
            recipientId: '1',
            roleName: 'partner',
            routingOrder: '1',
            tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '600' }] },
          },
        ],
      },
    });
    for (const [i, name] of names.entries()) {
      const got = await download(`${sandbox.rootUrl}/accounts/${accountId}/templates/${templateId}/documents/${i + 1}`);
      expect(got.status, got.header).toBe(200);
      expect(got.name).toBe(name);
    }

    const dir = await tempDir('signrun-import-names-');
    const imported = await runCli(['import', 'template', templateId, '--out', 'vertrag.yaml'], {
      cwd: dir,
      env: sandboxEnv(sandbox),
    });
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const job = parse(await readFile(path.join(dir, 'vertrag.yaml'), 'utf8')) as {
      templates: Array<{ documents: Array<{ name: string; file: string }> }>;
    };
    const documents = job.templates[0]!.documents;
    expect(documents.map((d) => d.name)).toEqual(names);
    for (const d of documents) expect(sha256(await readFile(path.join(dir, d.file)))).toBe(sha256(pdf));
  });
});
