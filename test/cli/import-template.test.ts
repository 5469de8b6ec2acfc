import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startHostileProxy } from '../helpers/hostile-proxy.js';
import { binPath, repoRoot, runCli } from '../helpers/run-cli.js';
import { Changes } from '../helpers/barrier.js';
import { startSandbox, defaultSeedIds } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { importTemplate } from '../../src/runner/import/import-template.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { sandboxEnv, sha256, tempDir } from './run-helpers.js';

// `signrun import template` (issue 21, item 3): a template of the service
// written as a job file and its documents; importing then planning against
// the same service shows no change.

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

const pdf = async () => (await readFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'))).toString('base64');

/** POST /templates through the client, as any DocuSign integration would make one. */
async function createTemplate(name: string): Promise<string> {
  const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
  try {
    const account = await client.login();
    const documentBase64 = await pdf();
    const { templateId } = await account.createTemplate({
      name,
      description: 'Mutual non-disclosure agreement',
      emailSubject: 'Please sign the NDA',
      documents: [
        { documentId: '1', name: 'nda.pdf', fileExtension: 'pdf', documentBase64 },
        { documentId: '2', name: 'annex.pdf', fileExtension: 'pdf', documentBase64 },
      ],
      recipients: {
        signers: [
          {
            recipientId: '1',
            roleName: 'party-a',
            routingOrder: '1',
            tabs: {
              signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '600' }],
              textTabs: [
                {
                  documentId: '1',
                  pageNumber: '1',
                  xPosition: '100',
                  yPosition: '500',
                  tabLabel: 'company',
                  required: 'true',
                  width: '200',
                  value: '',
                },
              ],
              checkboxTabs: [
                {
                  documentId: '2',
                  pageNumber: '1',
                  xPosition: '50',
                  yPosition: '50',
                  tabLabel: 'agree',
                  selected: 'false',
                },
              ],
              // Placed by anchor; DocuSign also answers where it found it, which the job file leaves out.
              dateSignedTabs: [
                {
                  documentId: '1',
                  anchorString: 'Signature',
                  anchorXOffset: '0',
                  anchorYOffset: '20',
                  anchorUnits: 'pixels',
                  pageNumber: '2',
                  xPosition: '72',
                  yPosition: '300',
                },
              ],
              radioGroupTabs: [
                {
                  documentId: '1',
                  groupName: 'term',
                  radios: [
                    { pageNumber: '1', xPosition: '100', yPosition: '400', value: '1y' },
                    { pageNumber: '1', xPosition: '150', yPosition: '400', value: '2y', selected: 'true' },
                  ],
                },
              ],
              listTabs: [
                {
                  documentId: '1',
                  pageNumber: '1',
                  xPosition: '300',
                  yPosition: '500',
                  tabLabel: 'country',
                  listItems: [
                    { text: 'France', value: 'FR' },
                    { text: 'Germany', value: 'DE', selected: 'true' },
                  ],
                },
              ],
            },
          },
          {
            recipientId: '2',
            roleName: 'party-b',
            routingOrder: '2',
            name: 'Legal Team',
            email: 'legal@example.com',
            tabs: { signHereTabs: [{ documentId: '2', pageNumber: '1', xPosition: '300', yPosition: '600' }] },
          },
        ],
        carbonCopies: [{ recipientId: '3', roleName: 'archive', routingOrder: '3' }],
      },
      customFields: { textCustomFields: [] },
    });
    return templateId;
  } finally {
    client.close();
  }
}

/** `validate` accepts the folder, and `plan` says "no change" for the template. */
async function expectNoChange(dir: string, identity: string): Promise<void> {
  const validated = await runCli(['validate', '.'], { cwd: dir });
  expect(validated.code, validated.stdout + validated.stderr).toBe(0);
  const planned = await runCli(['plan', '.'], { cwd: dir, env });
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stdout).toMatch(new RegExp(`no change\\s+${identity}\\s`));
  expect(planned.stdout).not.toMatch(/update template|create template|changed outside/);
}

describe('signrun import template', () => {
  it('the seed template, by id: a job file and its document that validate accepts and plan sees as no change', async () => {
    const dir = await tempDir('signrun-import-seed-');
    const imported = await runCli(['import', 'template', defaultSeedIds.templateId], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);

    const text = await readFile(path.join(dir, 'employment-contract.yaml'), 'utf8');
    expect(text.startsWith('# yaml-language-server: $schema=')).toBe(true);
    const schema = /\$schema=(\S+)/.exec(text)![1]!;
    expect(existsSync(path.resolve(dir, schema))).toBe(true);
    const job = parse(text) as {
      version: number;
      job: string;
      templates: Array<Record<string, unknown> & { documents: Array<{ name: string; file: string }> }>;
    };
    expect(job.version).toBe(1);
    expect(job.job).toBe('employment-contract');
    const [entry] = job.templates;
    expect(entry).toMatchObject({
      key: 'employment-contract',
      templateId: defaultSeedIds.templateId,
      name: 'Employment contract',
      emailSubject: 'Please sign your employment contract',
      emailBlurb: 'Your employment contract is ready for your signature.',
      documents: [{ name: 'Employment contract.pdf', file: 'templates/employment-contract/Employment contract.pdf' }],
      recipients: {
        signers: [
          {
            roleName: 'employee',
            tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '620' }] },
          },
          {
            roleName: 'employer',
            tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '350', yPosition: '620' }] },
          },
        ],
      },
    });
    // A role whose person each envelope gives: no name, no email; no ids the service numbers.
    // Routing order 1 is the default: left out, as the ids the service numbers and an unfixed person.
    expect(JSON.stringify(entry)).not.toMatch(/"(name|email)":""|tabId|recipientId|routingOrder/);

    // The document is the service's, byte for byte.
    const document = await readFile(path.join(dir, entry!.documents[0]!.file));
    const served = await fetch(
      `${sandbox.rootUrl}/accounts/${defaultSeedIds.accountId}/templates/${defaultSeedIds.templateId}/documents/1`,
      { headers: { 'X-DocuSign-Authentication': legacyHeader() } },
    );
    expect(sha256(document)).toBe(sha256(Buffer.from(await served.arrayBuffer())));
    expect(document.subarray(0, 5).toString()).toBe('%PDF-');

    await expectNoChange(dir, 'employment-contract/employment-contract');
  });

  it('a template made through the API, by its exact name, to --out FILE: no change; a changed tab is an update', async () => {
    const name = 'NDA — mutual (2026)';
    const templateId = await createTemplate(name);
    const dir = await tempDir('signrun-import-api-');
    const imported = await runCli(['import', 'template', name, '--out', 'jobs/nda.yaml'], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(templateId);
    for (const file of [
      'jobs/nda.yaml',
      'jobs/templates/nda-mutual-2026/nda.pdf',
      'jobs/templates/nda-mutual-2026/annex.pdf',
    ])
      expect(existsSync(path.join(dir, file)), file).toBe(true);

    const text = await readFile(path.join(dir, 'jobs/nda.yaml'), 'utf8');
    const job = parse(text) as { job: string; templates: Array<Record<string, unknown>> };
    expect(job.job).toBe('nda-mutual-2026');
    expect(job.templates[0]).toMatchObject({
      key: 'nda-mutual-2026',
      templateId,
      name,
      description: 'Mutual non-disclosure agreement',
      emailSubject: 'Please sign the NDA',
      documents: [
        { name: 'nda.pdf', file: 'templates/nda-mutual-2026/nda.pdf' },
        { name: 'annex.pdf', file: 'templates/nda-mutual-2026/annex.pdf' },
      ],
      recipients: {
        signers: [
          {
            roleName: 'party-a',
            tabs: {
              signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '600' }],
              // DocuSign's strings kept where the schema takes strings; the empty value (not set) left out.
              textTabs: [
                {
                  documentId: '1',
                  pageNumber: '1',
                  xPosition: '100',
                  yPosition: '500',
                  tabLabel: 'company',
                  required: 'true',
                  width: '200',
                },
              ],
              checkboxTabs: [{ tabLabel: 'agree', selected: 'false' }],
              listTabs: [{ tabLabel: 'country', listItems: [{ text: 'France', value: 'FR' }, { selected: 'true' }] }],
              dateSignedTabs: [
                { anchorString: 'Signature', anchorXOffset: '0', anchorYOffset: '20', anchorUnits: 'pixels' },
              ],
              radioGroupTabs: [
                { documentId: '1', groupName: 'term', radios: [{ value: '1y' }, { value: '2y', selected: 'true' }] },
              ],
            },
          },
          { roleName: 'party-b', routingOrder: 2, name: 'Legal Team', email: 'legal@example.com' },
        ],
        carbonCopies: [{ roleName: 'archive', routingOrder: 3 }],
      },
    });
    expect((job.templates[0] as { emailBlurb?: string }).emailBlurb).toBeUndefined();
    expect(text).not.toMatch(/"value": ""|value: ""/);
    const role = (job.templates[0] as { recipients: { signers: Array<{ tabs: Record<string, unknown[]> }> } })
      .recipients.signers[0]!;
    expect(Object.keys(role.tabs['dateSignedTabs']![0] as object)).not.toContain('xPosition');

    await expectNoChange(path.join(dir, 'jobs'), 'nda-mutual-2026/nda-mutual-2026');

    // The plan compares what was imported: a tab changed in the file is an update.
    await writeFile(path.join(dir, 'jobs/nda.yaml'), text.replace('width: "200"', 'width: "210"'));
    const changed = await runCli(['plan', '.'], { cwd: path.join(dir, 'jobs'), env });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(/update template\s+nda-mutual-2026\/nda-mutual-2026/);
    expect(changed.stdout).toContain('textTabs[0] width: "210" in the file, "200" in the account');
  });

  it('by name: none or several of that name is a coded error (exit 2) listing the candidates; nothing is written', async () => {
    const first = await createTemplate('Twin template');
    const second = await createTemplate('Twin template');
    const dir = await tempDir('signrun-import-names-');

    const twins = await runCli(['import', 'template', 'Twin template'], { cwd: dir, env });
    expect(twins.code).toBe(2);
    expect(twins.stderr).toContain('SR_TEMPLATE_NAME_AMBIGUOUS');
    expect(twins.stderr).toContain(first);
    expect(twins.stderr).toContain(second);

    // Not an exact name (case counts): the templates whose name holds it are listed.
    const near = await runCli(['import', 'template', 'twin'], { cwd: dir, env });
    expect(near.code).toBe(2);
    expect(near.stderr).toContain('SR_TEMPLATE_NOT_FOUND');
    expect(near.stderr).toContain(first);

    const none = await runCli(['import', 'template', 'No such template anywhere'], { cwd: dir, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('SR_TEMPLATE_NOT_FOUND');
    expect(existsSync(path.join(dir, 'twin-template.yaml'))).toBe(false);
    expect(existsSync(path.join(dir, 'templates'))).toBe(false);
  });

  it('a missing template id is SR_TEMPLATE_NOT_FOUND (exit 2); with no service configured, SR_IMPORT_NO_SERVICE (exit 2)', async () => {
    const dir = await tempDir('signrun-import-missing-');
    const missing = await runCli(['import', 'template', '00000000-1111-2222-3333-444444444444'], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('SR_TEMPLATE_NOT_FOUND');

    const offline = await runCli(['import', 'template', defaultSeedIds.templateId], { cwd: dir });
    expect(offline.code).toBe(2);
    expect(offline.stderr).toContain('SR_IMPORT_NO_SERVICE');
    expect(existsSync(path.join(dir, 'employment-contract.yaml'))).toBe(false);
  });

  it('a document refused (SR_DOWNLOAD_TOO_LARGE) after another was downloaded leaves nothing behind, as it says', async () => {
    // Issue 36: the refusal said "nothing was written" and left templates/<key>/one.pdf.
    const templateId = await createTemplate('Two documents, the second endless');
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    proxy.mode = 'oversized-template-documents';
    try {
      const viaProxy = { ...env, DOCUSIGN_ROOT_URL: proxy.rootUrl };
      const dir = await tempDir('signrun-import-refused-');
      const refused = await runCli(['import', 'template', templateId], { cwd: dir, env: viaProxy });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain('SR_DOWNLOAD_TOO_LARGE');
      expect(refused.stderr).toMatch(/the 1 file\(s\) downloaded before it were discarded, nothing was written/);
      // Nothing: no job file, no document, no templates/ folder, no temp file.
      expect(await readdir(dir, { recursive: true })).toEqual([]);

      // With --force over an earlier import: the files there stay as they were, nothing is added.
      await writeFile(path.join(dir, 'two-documents-the-second-endless.yaml'), 'earlier\n');
      const forced = await runCli(['import', 'template', templateId, '--force'], { cwd: dir, env: viaProxy });
      expect(forced.stderr).toContain('SR_DOWNLOAD_TOO_LARGE');
      expect(await readdir(dir, { recursive: true })).toEqual(['two-documents-the-second-endless.yaml']);
      expect(await readFile(path.join(dir, 'two-documents-the-second-endless.yaml'), 'utf8')).toBe('earlier\n');
    } finally {
      await proxy.close();
    }
  });

  it('counts the requests it sent, as the service received them', async () => {
    const templateId = await createTemplate('Two documents, counted');
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    let received = 0;
    proxy.beforeRequest = () => {
      received += 1;
    };
    try {
      const dir = await tempDir('signrun-import-counted-');
      const imported = await importTemplate({
        target: { rootUrl: proxy.rootUrl, auth: sandboxSeedAuth() },
        template: templateId,
        cwd: dir,
      });
      // Login, the template, its two documents: each one request, and the import says so.
      expect(received).toBeGreaterThanOrEqual(4);
      expect(imported.apiCalls).toBe(received);
    } finally {
      await proxy.close();
    }
  });

  it('stops on the first SIGTERM (its abort signal): the document in hand finished, nothing kept, SR_INTERRUPTED (exit 130)', async () => {
    const templateId = await createTemplate('Two documents, interrupted');
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    const controller = new AbortController();
    const downloads: string[] = [];
    proxy.beforeRequest = (method, url) => {
      const document = /\/templates\/[^/]+\/documents\/([^/?]+)/.exec(url)?.[1];
      if (method !== 'GET' || document === undefined) return;
      downloads.push(document);
      // The signal comes while the first document is in hand.
      controller.abort();
    };
    try {
      const dir = await tempDir('signrun-import-interrupted-');
      const stopped = await importTemplate({
        target: { rootUrl: proxy.rootUrl, auth: sandboxSeedAuth() },
        template: templateId,
        cwd: dir,
        signal: controller.signal,
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(stopped).toBeInstanceOf(SignrunError);
      expect((stopped as SignrunError).code).toBe('SR_INTERRUPTED');
      expect((stopped as SignrunError).exitCode).toBe(130);
      expect((stopped as SignrunError).message).toMatch(/before document 2 of 2.*nothing was written/);
      // The first document was downloaded whole, the second never asked for; nothing stays.
      expect(downloads).toEqual(['1']);
      expect(await readdir(dir, { recursive: true })).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('the CLI, sent SIGTERM while the first document downloads: exit 130, SR_INTERRUPTED, the folder empty', async () => {
    const templateId = await createTemplate('Two documents, SIGTERM');
    const proxy = await startHostileProxy(new URL(sandbox.rootUrl).origin);
    try {
      const dir = await tempDir('signrun-import-sigterm-');
      const child = spawn(process.execPath, [binPath, 'import', 'template', templateId], {
        cwd: dir,
        env: { ...(process.env as Record<string, string>), ...env, DOCUSIGN_ROOT_URL: proxy.rootUrl, NO_COLOR: '1' },
        stdio: 'pipe',
      });
      let stderr = '';
      const changes = new Changes();
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        changes.changed();
      });
      child.stdout.resume();
      const downloads: string[] = [];
      // SIGTERM while document 1 is asked; it is answered once the import has taken the signal.
      proxy.beforeRequest = async (method, url) => {
        const document = /\/templates\/[^/]+\/documents\/([^/?]+)/.exec(url)?.[1];
        if (method !== 'GET' || document === undefined) return;
        downloads.push(document);
        if (document !== '1') return;
        child.kill('SIGTERM');
        await changes.until(() => stderr.includes('SIGTERM'));
      };
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(130);
      expect(stderr).toContain('SR_INTERRUPTED');
      expect(downloads).toEqual(['1']);
      expect(await readdir(dir, { recursive: true })).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses to overwrite the job file (SR_IMPORT_FILE_EXISTS, exit 2) unless --force', async () => {
    const dir = await tempDir('signrun-import-force-');
    await writeFile(path.join(dir, 'contract.yaml'), '# mine\n');
    const refused = await runCli(['import', 'template', defaultSeedIds.templateId, '--out', 'contract.yaml'], {
      cwd: dir,
      env,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('SR_IMPORT_FILE_EXISTS');
    expect(await readFile(path.join(dir, 'contract.yaml'), 'utf8')).toBe('# mine\n');
    expect(existsSync(path.join(dir, 'templates'))).toBe(false);

    const forced = await runCli(
      ['import', 'template', defaultSeedIds.templateId, '--out', 'contract.yaml', '--force'],
      {
        cwd: dir,
        env,
      },
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(path.join(dir, 'contract.yaml'), 'utf8')).toContain(
      'templateId: ' + defaultSeedIds.templateId,
    );
  });
});

function legacyHeader(): string {
  return JSON.stringify({
    Username: env['DOCUSIGN_USERNAME'],
    Password: env['DOCUSIGN_PASSWORD'],
    IntegratorKey: env['DOCUSIGN_INTEGRATOR_KEY'],
  });
}

describe('signrun import template of a template signrun keeps as code', () => {
  it('is imported under the job and key it carries (its identity): plan finds it and says no change', async () => {
    const source = await tempDir('signrun-import-owned-');
    await mkdir(path.join(source, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(source, 'docs/offer-letter.pdf'));
    await writeFile(
      path.join(source, 'hr.yaml'),
      [
        'version: 1',
        'job: hr-templates',
        'templates:',
        '  - key: offer',
        '    name: Offer letter kept as code',
        '    documents: [{ file: docs/offer-letter.pdf }]',
        '    recipients:',
        '      signers:',
        '        - roleName: candidate',
        '          tabs: { textTabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 300, tabLabel: salary }] }',
        '',
      ].join('\n'),
    );
    const ran = await runCli(['run', '.'], { cwd: source, env });
    expect(ran.code, ran.stderr).toBe(0);

    const dir = await tempDir('signrun-import-owned-dst-');
    const imported = await runCli(['import', 'template', 'Offer letter kept as code'], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);
    const job = parse(await readFile(path.join(dir, 'offer.yaml'), 'utf8')) as {
      job: string;
      templates: Array<{ key: string }>;
    };
    expect(job.job).toBe('hr-templates');
    expect(job.templates[0]!.key).toBe('offer');
    const validated = await runCli(['validate', '.'], { cwd: dir });
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    const planned = await runCli(['plan', '.'], { cwd: dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    // The same template, found (no create), with nothing of the account's differing from the file.
    // The same template (found, not created), and the content signrun wrote on it (its digest): no change.
    expect(planned.stdout).toMatch(/no change\s+hr-templates\/offer\s/);
  });
});
