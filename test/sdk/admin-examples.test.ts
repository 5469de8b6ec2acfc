import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../helpers/run-cli.js';
import { spawnServe, type ServeProcess } from '../sandbox/helpers/serve-process.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';
import { seedUserHeaders } from '../sandbox/helpers/jwt.js';
import { makePdf } from '../sandbox/helpers/api.js';

// DocuSign's official Node SDK (docusign-esign 10), unchanged, making the
// calls of DocuSign's eSignature examples of issue 23's sandbox areas as
// code-examples-node makes them — its own JWT login, its method calls with
// their option objects and rate-limit callbacks, `.data` read from the
// answers — against `signrun serve --tls`: eg028 createBrand, eg029/eg030
// listBrands and a branded envelope from the template, eg011 createSenderView
// of a draft, eg012 createConsoleView, eg045 moveEnvelopes to the recycle
// bin, list, and back. (eg043 needs a second user made by the users API;
// test/sandbox/shared-access.test.ts runs its authorization calls over HTTP.)

const program = String.raw`
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(process.env.REPO_ROOT + '/package.json');
const docusign = require('docusign-esign');
const env = process.env;
const out = (step, value) => process.stdout.write(JSON.stringify({ step, value }) + '\n');
// The examples' callback on every call: it reads the rate-limit headers.
const rateLimitCallback = (error, data, response) => {
  const headers = response?.headers;
  const remaining = headers?.['x-ratelimit-remaining'];
  const reset = headers?.['x-ratelimit-reset'];
  if (remaining && reset) new Date(Number(reset) * 1000);
};

const api = new docusign.ApiClient();
api.setOAuthBasePath(env.OAUTH_HOST);
const jwt = await api.requestJWTUserToken(env.INTEGRATION_KEY, env.USER_ID, ['signature', 'impersonation'], readFileSync(env.PRIVATE_KEY_FILE), 3600);
const info = await api.getUserInfo(jwt.body.access_token);
const account = info.accounts.find((a) => a.isDefault === 'true');
const args = { basePath: account.baseUri + '/restapi', accessToken: jwt.body.access_token, accountId: account.accountId };
const client = () => {
  const c = new docusign.ApiClient();
  c.setBasePath(args.basePath);
  c.addDefaultHeader('Authorization', 'Bearer ' + args.accessToken);
  return c;
};

// eg028
const created = await new docusign.AccountsApi(client()).createBrand(args.accountId, { brand: { brandName: 'SDK brand', defaultBrandLanguage: 'en' } }, rateLimitCallback);
const brandId = created.data.brands[0].brandId;
out('eg028 brand', [typeof brandId, created.data.brands[0].brandName]);
// eg030 (getBrands, then the envelope from a template with the brand)
const brands = await new docusign.AccountsApi(client()).listBrands(args.accountId, rateLimitCallback);
out('eg030 brands', brands.data.brands.map((b) => b.brandName));
const branded = await new docusign.EnvelopesApi(client()).createEnvelope(args.accountId, {
  envelopeDefinition: {
    templateId: env.TEMPLATE_ID,
    brandId,
    templateRoles: [
      { email: 'signer@example.com', name: 'Sam Signer', roleName: 'employee' },
      { email: 'cc@example.com', name: 'Cee Cee', roleName: 'employer' },
    ],
    status: 'sent',
  },
}, rateLimitCallback);
out('eg030 envelope', branded.data.status);

// eg011: a draft, then the sender view
const envelopesApi = new docusign.EnvelopesApi(client());
const draft = await envelopesApi.createEnvelope(args.accountId, {
  envelopeDefinition: {
    emailSubject: 'Please sign this document set',
    documents: [{ documentBase64: readFileSync(env.PDF_FILE).toString('base64'), name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '3' }],
    recipients: {
      signers: [{ email: 'ada@example.com', name: 'Ada', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '3', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }],
      carbonCopies: [{ email: 'cc@example.com', name: 'Cee', routingOrder: '2', recipientId: '2' }],
    },
    status: 'created',
  },
}, rateLimitCallback);
const viewRequest = docusign.EnvelopeViewRequest.constructFromObject({
  returnUrl: 'https://app.example/ds-return',
  viewAccess: 'envelope',
  settings: docusign.EnvelopeViewSettings.constructFromObject({
    startingScreen: 'tagging', sendButtonAction: 'send', showBackButton: 'false', backButtonAction: 'previousPage',
    showHeaderActions: 'false', showDiscardAction: 'false', lockToken: '',
    recipientSettings: docusign.EnvelopeViewRecipientSettings.constructFromObject({ showEditRecipients: 'false', showContactsList: 'false' }),
    documentSettings: docusign.EnvelopeViewDocumentSettings.constructFromObject({ showEditDocuments: 'false', showEditDocumentVisibility: 'false', showEditPages: 'false' }),
    taggerSettings: docusign.EnvelopeViewTaggerSettings.constructFromObject({ paletteSections: 'default', paletteDefault: 'custom' }),
    templateSettings: docusign.EnvelopeViewTemplateSettings.constructFromObject({ showMatchingTemplatesPrompt: 'true' }),
  }),
});
const sender = await envelopesApi.createSenderView(args.accountId, draft.data.envelopeId, { envelopeViewRequest: viewRequest }, rateLimitCallback);
out('eg011 url', sender.data.url);

// eg012
const consoleRequest = new docusign.ConsoleViewRequest();
consoleRequest.returnUrl = 'https://app.example/ds-return';
consoleRequest.envelopeId = branded.data.envelopeId;
const consoleView = await envelopesApi.createConsoleView(args.accountId, { consoleViewRequest: consoleRequest }, rateLimitCallback);
out('eg012 url', consoleView.data.url);

// eg045
const foldersApi = new docusign.FoldersApi(client());
await foldersApi.moveEnvelopes(args.accountId, 'recyclebin', { foldersRequest: docusign.FoldersRequest.constructFromObject({ envelopeIds: [branded.data.envelopeId] }) }, rateLimitCallback);
out('eg045 deleted', (await envelopesApi.getEnvelope(args.accountId, branded.data.envelopeId)).status);
const folders = await foldersApi.list(args.accountId, rateLimitCallback);
const getFolderIdByName = (list, name) => {
  for (const folder of list) {
    if (folder.name.toLowerCase() === name.toLowerCase()) return folder.folderId;
    if (folder.folders?.length > 0) { const id = getFolderIdByName(folder.folders, name); if (id) return id; }
  }
  return null;
};
const folderId = getFolderIdByName(folders.data.folders, 'Sent Items');
await foldersApi.moveEnvelopes(args.accountId, folderId, { foldersRequest: docusign.FoldersRequest.constructFromObject({ envelopeIds: [branded.data.envelopeId], fromFolderId: 'recyclebin' }) }, rateLimitCallback);
const items = await foldersApi.listItems(args.accountId, folderId);
out('eg045 restored', items.folderItems ? 'folderItems' : items.envelopes.map((e) => e.envelopeId).includes(branded.data.envelopeId));
`;

let serve: ServeProcess;
let dir: string;
const run = promisify(execFile);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'signrun-sdk-admin-'));
  serve = await spawnServe(['--tls', '--data', join(dir, 'data')]);
});
afterAll(async () => {
  serve.child.kill('SIGTERM');
  await serve.exited;
  rmSync(dir, { recursive: true, force: true });
});

function postTrusting(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca, headers: seedUserHeaders() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("DocuSign's Node SDK making the admin examples' calls against signrun serve --tls", () => {
  it('creates and applies a brand, opens sender and console views, deletes and restores an envelope', async () => {
    const caFile = join(dir, 'data', 'tls', 'sandbox-tls-ca.pem');
    const pair = await postTrusting(
      `${serve.origin}/sandbox/integrations/sandbox-integrator-key/rsa-keys`,
      readFileSync(caFile, 'utf8'),
    );
    expect(pair.status).toBe(201);
    const keyFile = join(dir, 'private.key');
    writeFileSync(keyFile, (JSON.parse(pair.body) as { privateKey: string }).privateKey, { mode: 0o600 });
    const pdfFile = join(dir, 'lorem.pdf');
    writeFileSync(pdfFile, await makePdf(1));
    const file = join(dir, 'admin-examples.mjs');
    writeFileSync(file, program);
    const { stdout } = await run(process.execPath, [file], {
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: caFile,
        REPO_ROOT: repoRoot,
        OAUTH_HOST: new URL(serve.origin).host,
        INTEGRATION_KEY: 'sandbox-integrator-key',
        USER_ID: defaultSeedIds.userId,
        PRIVATE_KEY_FILE: keyFile,
        TEMPLATE_ID: defaultSeedIds.templateId,
        PDF_FILE: pdfFile,
      },
      timeout: 60_000,
    });
    const steps = new Map(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { step: string; value: unknown })
        .map((s) => [s.step, s.value]),
    );
    expect(steps.get('eg028 brand')).toEqual(['string', 'SDK brand']);
    expect(steps.get('eg030 brands')).toEqual(['SDK brand']);
    expect(steps.get('eg030 envelope')).toBe('sent');
    expect(steps.get('eg011 url')).toMatch(new RegExp(`^${serve.origin}/sending/`));
    expect(steps.get('eg012 url')).toMatch(new RegExp(`^${serve.origin}/console/`));
    expect(steps.get('eg045 deleted')).toBe('voided');
    expect(steps.get('eg045 restored')).toBe(true);
  });
});
