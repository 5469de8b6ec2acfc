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
import { makePdf } from '../sandbox/helpers/api.js';
import { seedUserHeaders } from '../sandbox/helpers/jwt.js';

// Issue 11, "Done when": DocuSign's official Node SDK (docusign-esign 10,
// REST v2.1), UNCHANGED, runs the three sequences of service-api.md 4.12
// against `signrun serve --tls`, logging in with its own requestJWTUserToken
// and getUserInfo. It runs in a child process that trusts the sandbox's CA
// the way a user's program would: NODE_EXTRA_CA_CERTS.

/**
 * The SDK program, as an integrator would write it from DocuSign's quick
 * start (plain JavaScript, written to a temporary file and run by node).
 * It prints one JSON line per step; the test asserts on them.
 */
const sdkProgram = String.raw`
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(process.env.REPO_ROOT + '/package.json');
const docusign = require('docusign-esign');
const env = process.env;
const out = (step, value) => process.stdout.write(JSON.stringify({ step, value }) + '\n');
const privateKey = readFileSync(env.PRIVATE_KEY_FILE);

async function logIn(userId) {
  const api = new docusign.ApiClient();
  api.setOAuthBasePath(env.OAUTH_HOST);
  const jwt = await api.requestJWTUserToken(env.INTEGRATION_KEY, userId, ['signature', 'impersonation'], privateKey, 3600);
  const token = jwt.body.access_token;
  const info = await api.getUserInfo(token);
  const account = info.accounts.find((a) => a.isDefault === 'true');
  api.setBasePath(account.baseUri + '/restapi');
  api.addDefaultHeader('Authorization', 'Bearer ' + token);
  return { api, accountId: account.accountId, info, expiresIn: jwt.body.expires_in };
}

const signHere = (x) => ({ signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: '600' }] });

async function thenAsAbove(api, accountId, envelopeId, label) {
  const envelopes = new docusign.EnvelopesApi(api);
  const recipients = await envelopes.listRecipients(accountId, envelopeId);
  out(label + ' recipients', recipients.signers.map((s) => [s.name, s.routingOrder, s.status]));
  const first = recipients.signers[0];
  const view = await envelopes.createRecipientView(accountId, envelopeId, {
    recipientViewRequest: {
      userName: first.name, email: first.email, clientUserId: first.clientUserId,
      returnUrl: 'https://app.example/done', authenticationMethod: 'none',
    },
  });
  out(label + ' view', view.url);
  const documents = await envelopes.listDocuments(accountId, envelopeId);
  out(label + ' documents', documents.envelopeDocuments.map((d) => [d.documentId, (d.pages || []).length]));
  for (const d of documents.envelopeDocuments) {
    const bytes = await envelopes.getDocument(accountId, envelopeId, d.documentId);
    out(label + ' document ' + d.documentId, Buffer.from(bytes, 'binary').subarray(0, 5).toString('latin1'));
  }
}

/** What a person does on the consent page: sign in and Allow (the form's own fields sent back). */
async function consent(url, email, password) {
  const page = await fetch(url);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(name, value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
  form.set('email', email);
  form.set('password', password);
  form.set('decision', 'allow');
  return fetch(env.SANDBOX_ORIGIN + '/oauth/auth', {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.headers.get('set-cookie').split(';')[0] },
    body: form,
  });
}

const main = await logIn(env.USER_ID);
out('userinfo', { sub: main.info.sub, accountId: main.accountId, baseUri: main.info.accounts[0].baseUri, expiresIn: main.expiresIn });

// 1. Embedded signing from documents.
const envelopes = new docusign.EnvelopesApi(main.api);
const created = await envelopes.createEnvelope(main.accountId, {
  envelopeDefinition: {
    emailSubject: 'Please sign', status: 'sent',
    documents: [{ documentId: '1', name: 'contract.pdf', fileExtension: 'pdf', documentBase64: readFileSync(env.PDF_FILE).toString('base64') }],
    recipients: { signers: [
      { name: 'Jean Français', email: 'jean@example.com', recipientId: '1', routingOrder: '1', clientUserId: 'emp-1', tabs: signHere(100) },
      { name: 'Marie Curie', email: 'marie@example.com', recipientId: '2', routingOrder: '2', clientUserId: 'mgr-1', tabs: signHere(300) },
    ] },
  },
});
out('1 created', created.status);
await thenAsAbove(main.api, main.accountId, created.envelopeId, '1');

// 2. From a template.
const template = await new docusign.TemplatesApi(main.api).get(main.accountId, env.TEMPLATE_ID);
out('2 template', [template.name, template.recipients.signers.map((s) => s.roleName)]);
const fromTemplate = await envelopes.createEnvelope(main.accountId, {
  envelopeDefinition: {
    templateId: env.TEMPLATE_ID, status: 'sent',
    templateRoles: [
      { roleName: 'employee', name: 'Ann Employee', email: 'ann@example.com', clientUserId: 'ann' },
      { roleName: 'employer', name: 'Bob Boss', email: 'bob@example.com', clientUserId: 'bob' },
    ],
  },
});
out('2 created', fromTemplate.status);
await thenAsAbove(main.api, main.accountId, fromTemplate.envelopeId, '2');

// 3. Subsidiary accounts.
const accounts = new docusign.AccountsApi(main.api);
const own = await accounts.getAccountInformation(main.accountId);
out('3 own account', own.accountName);
const subsidiary = await accounts.create({
  newAccountDefinition: {
    accountName: 'Acme SDK', distributorCode: env.DISTRIBUTOR_CODE, distributorPassword: env.DISTRIBUTOR_PASSWORD,
    initialUser: { email: 'ada@acme-sdk.test', userName: 'ada@acme-sdk.test', firstName: 'Ada', lastName: 'Martin', password: 'acme-sdk-secret-1' },
    planInformation: { planId: 'sandbox-plan' },
  },
});
out('3 created', Boolean(subsidiary.accountId && subsidiary.userId));
// The new user opens the activation link of their "email", then consents to
// the integration key on the consent page (what a person does in a browser).
const outbox = await (await fetch(env.SANDBOX_ORIGIN + '/sandbox/outbox?format=json')).json();
const activation = outbox.messages.find((m) => m.kind === 'account-activation' && m.to === 'ada@acme-sdk.test');
out('3 activated', (await fetch(activation.links[0])).status);
const read = await accounts.getAccountInformation(subsidiary.accountId);
out('3 read by distributor', read.accountName);
const allowed = await consent(
  env.SANDBOX_ORIGIN + '/oauth/auth?response_type=code&scope=signature%20impersonation&client_id=' +
    env.INTEGRATION_KEY + '&redirect_uri=' + encodeURIComponent('https://app.example/callback'),
  'ada@acme-sdk.test', 'acme-sdk-secret-1');
out('3 consented', allowed.status);
const newUser = await logIn(subsidiary.userId);
out('3 new user account', newUser.accountId === subsidiary.accountId);
out('3 read by new user', (await new docusign.AccountsApi(newUser.api).getAccountInformation(newUser.accountId)).accountName);
await new docusign.AccountsApi(newUser.api)._delete(newUser.accountId);
try {
  await accounts.getAccountInformation(subsidiary.accountId);
  out('3 after delete', 'still there');
} catch (error) {
  out('3 after delete', error.response && error.response.data && error.response.data.errorCode);
}

// People: the SDK's authorization code grant — getAuthorizationUri, the
// consent page, generateAccessToken with the key's secret (HTTP Basic).
const people = new docusign.ApiClient();
people.setOAuthBasePath(env.OAUTH_HOST);
const authUri = people.getAuthorizationUri(env.INTEGRATION_KEY, ['signature'], 'https://app.example/callback', 'code', 'st-1');
const answered = await consent(authUri, env.SEED_EMAIL, env.SEED_PASSWORD);
const code = new URL(answered.headers.get('location')).searchParams.get('code');
const personal = await people.generateAccessToken(env.INTEGRATION_KEY, env.CLIENT_SECRET, code);
out('people token', [personal.tokenType, typeof personal.refreshToken, personal.expiresIn]);
out('people userinfo', (await people.getUserInfo(personal.accessToken)).sub);
`;

let serve: ServeProcess;
let dir: string;
const run = promisify(execFile);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'signrun-sdk-'));
  serve = await spawnServe(['--tls', '--data', join(dir, 'data')]);
});
afterAll(async () => {
  serve.child.kill('SIGTERM');
  await serve.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** POST over HTTPS trusting only the sandbox's CA. */
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

describe("DocuSign's official Node SDK (docusign-esign 10, REST v2.1) against signrun serve --tls", () => {
  it('logs in with requestJWTUserToken + getUserInfo and runs the three 4.12 sequences unchanged; a person logs in with its code grant', async () => {
    expect(serve.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const caFile = join(dir, 'data', 'tls', 'sandbox-tls-ca.pem');
    const ca = readFileSync(caFile, 'utf8');
    // The key pair, as from DocuSign's Apps and Keys page.
    const pair = await postTrusting(`${serve.origin}/sandbox/integrations/sandbox-integrator-key/rsa-keys`, ca);
    expect(pair.status).toBe(201);
    const keyFile = join(dir, 'private.key');
    writeFileSync(keyFile, (JSON.parse(pair.body) as { privateKey: string }).privateKey, { mode: 0o600 });
    const secret = await postTrusting(`${serve.origin}/sandbox/integrations/sandbox-integrator-key/secrets`, ca);
    expect(secret.status).toBe(201);
    const pdfFile = join(dir, 'contract.pdf');
    writeFileSync(pdfFile, await makePdf(2));
    const program = join(dir, 'sdk-sequences.mjs');
    writeFileSync(program, sdkProgram);

    const { stdout } = await run(process.execPath, [program], {
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: caFile,
        REPO_ROOT: repoRoot,
        OAUTH_HOST: new URL(serve.origin).host,
        SANDBOX_ORIGIN: serve.origin,
        INTEGRATION_KEY: 'sandbox-integrator-key',
        USER_ID: defaultSeedIds.userId,
        PRIVATE_KEY_FILE: keyFile,
        TEMPLATE_ID: defaultSeedIds.templateId,
        PDF_FILE: pdfFile,
        DISTRIBUTOR_CODE: 'SANDBOX-DISTRIBUTOR',
        DISTRIBUTOR_PASSWORD: 'sandbox-distributor-password',
        CLIENT_SECRET: (JSON.parse(secret.body) as { secret: string }).secret,
        SEED_EMAIL: 'sandbox@signrun.test',
        SEED_PASSWORD: 'sandbox-password',
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
    expect(steps.get('userinfo')).toEqual({
      sub: defaultSeedIds.userId,
      accountId: defaultSeedIds.accountId,
      baseUri: serve.origin,
      expiresIn: 3600,
    });
    // 1. From documents.
    expect(steps.get('1 created')).toBe('sent');
    expect(steps.get('1 recipients')).toEqual([
      ['Jean Français', '1', 'sent'],
      ['Marie Curie', '2', 'created'],
    ]);
    expect(steps.get('1 view')).toMatch(new RegExp(`^${serve.origin}/signing/`));
    // v2.1's pages: a list of page objects the SDK reads (two pages), the certificate none.
    expect(steps.get('1 documents')).toEqual([
      ['1', 2],
      ['certificate', 0],
    ]);
    expect(steps.get('1 document 1')).toBe('%PDF-');
    expect(steps.get('1 document certificate')).toBe('%PDF-');
    // 2. From the template.
    expect(steps.get('2 template')).toEqual(['Employment contract', ['employee', 'employer']]);
    expect(steps.get('2 created')).toBe('sent');
    expect(steps.get('2 documents')).toEqual([
      ['1', 1],
      ['certificate', 0],
    ]);
    expect(steps.get('2 document 1')).toBe('%PDF-');
    // 3. Subsidiary accounts.
    expect(steps.get('3 own account')).toBe('Sandbox Corp');
    expect(steps.get('3 created')).toBe(true);
    expect(steps.get('3 activated')).toBe(200);
    expect(steps.get('3 read by distributor')).toBe('Acme SDK');
    expect(steps.get('3 consented')).toBe(303);
    expect(steps.get('3 new user account')).toBe(true);
    expect(steps.get('3 read by new user')).toBe('Acme SDK');
    expect(steps.get('3 after delete')).toBe('USER_LACKS_MEMBERSHIP');
    // People: the SDK's code grant with a secret key.
    expect(steps.get('people token')).toEqual(['Bearer', 'string', '28800']);
    expect(steps.get('people userinfo')).toBe(defaultSeedIds.userId);
  });
});
