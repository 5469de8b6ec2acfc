/**
 * signrun against the batch script a developer writes with DocuSign's
 * official Node SDK (`docusign-esign`, REST v2.1), side by side on the same
 * sandbox (`signrun serve --latency L`, its own process), the same envelopes
 * (N, 2 documents, 2 embedded signers each), the same concurrency C.
 *
 * The SDK script does what issue 10 describes (and DocuSign's embedded
 * signing examples do) for each envelope: create it sent, list its
 * recipients, one signing view per signer, list its documents, download each,
 * download the certificate — 8 calls — with C envelopes at once (p-limit).
 * signrun runs three times: as it runs by default against a service
 * (signing views at send, documents collected on completion, later), with
 * `--documents at-send` (the same downloads as the script, right after
 * sending), and with `--signing-urls on-demand` (no view at send: 2 calls an
 * envelope, views minted when a signer arrives, issue 24). Each uses its own
 * job name, so nothing is adopted from another.
 *
 *   npm run build && node bench/sdk-compare/sdk-compare.mjs [--envelopes 300] [--concurrency 16] [--latency 50]
 *
 * The SDK logs in with the legacy X-DocuSign-Authentication header (the
 * sandbox's v2.1 accepts it, as DocuSign's demo did), the account id from
 * login_information, as its own examples do.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { bin, numberArg, root, sandboxCredentials, sandboxEnv, startServe, stopServe, twoSignerJobFolder } from '../lib/bench-kit.mjs';

const require = createRequire(import.meta.url);
const docusign = require('docusign-esign');

const envelopes = numberArg('envelopes', 300);
const concurrency = numberArg('concurrency', 16);
const latency = numberArg('latency', 50);
const credentials = sandboxCredentials;

async function runSignrun(rootUrl, job, extra) {
  const dir = twoSignerJobFolder({ prefix: 'signrun-sdk-compare-', job, file: 'job.yaml', n: envelopes });
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'run', '.', '--out', 'out', '--concurrency', String(concurrency), ...extra], {
    cwd: dir,
    env: sandboxEnv(rootUrl),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.resume();
  const code = await new Promise((resolve) => child.on('exit', resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`signrun exited ${code}: ${stdout}`);
  const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  return { wallMs, calls: report.api.calls, succeeded: report.totals.envelopes.succeeded };
}

/** What a developer writes with the SDK: 8 calls per envelope, C envelopes at once. */
async function runSdk(origin, job) {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-sdk-script-'));
  const started = performance.now();
  const apiClient = new docusign.ApiClient({ basePath: `${origin}/restapi` });
  apiClient.addDefaultHeader('X-DocuSign-Authentication', JSON.stringify(credentials));
  let calls = 0;
  const login = await new docusign.AuthenticationApi(apiClient).login();
  calls += 1;
  const accountId = login.loginAccounts[0].accountId;
  const envelopesApi = new docusign.EnvelopesApi(apiClient);
  const documents = ['offer-letter.pdf', 'company-handbook.pdf'].map((name, i) =>
    docusign.Document.constructFromObject({
      documentId: String(i + 1),
      name,
      fileExtension: 'pdf',
      documentBase64: readFileSync(join(root, 'examples/docs', name)).toString('base64'),
    }),
  );
  const limit = pLimit(concurrency);
  let succeeded = 0;
  await Promise.all(
    Array.from({ length: envelopes }, (_, index) =>
      limit(async () => {
        const id = `B${100001 + index}`;
        const signers = [
          { recipientId: '1', name: `Employee ${index + 1}`, email: `employee${index + 1}@example.com`, clientUserId: `emp-${id}` },
          { recipientId: '2', name: `Manager of ${id}`, email: `manager-${id}@example.com`, clientUserId: `mgr-${id}` },
        ].map((s) => docusign.Signer.constructFromObject(s));
        const definition = docusign.EnvelopeDefinition.constructFromObject({
          emailSubject: 'Please sign',
          status: 'sent',
          documents,
          recipients: docusign.Recipients.constructFromObject({ signers }),
          customFields: { textCustomFields: [{ name: 'job', value: `${job}/${id}` }] },
        });
        const { envelopeId } = await envelopesApi.createEnvelope(accountId, { envelopeDefinition: definition });
        const recipients = await envelopesApi.listRecipients(accountId, envelopeId);
        const views = await Promise.all(
          recipients.signers.map((s) =>
            envelopesApi.createRecipientView(accountId, envelopeId, {
              recipientViewRequest: docusign.RecipientViewRequest.constructFromObject({
                returnUrl: 'https://hr.example.com/done',
                authenticationMethod: 'none',
                clientUserId: s.clientUserId,
                userName: s.name,
                email: s.email,
              }),
            }),
          ),
        );
        const folder = join(dir, id);
        mkdirSync(join(folder, 'documents'), { recursive: true });
        writeFileSync(join(folder, 'signing.json'), JSON.stringify({ envelopeId, urls: views.map((v) => v.url) }));
        // envelopesApi.listDocuments, with its answer left as JSON: the sandbox still answers this listing in
        // v2's shape (`pages` a number, where v2.1 has an array), which the SDK's model cannot read yet.
        const listed = await apiClient.callApi(
          '/v2.1/accounts/{accountId}/envelopes/{envelopeId}/documents', 'GET',
          { accountId, envelopeId }, {}, {}, {}, null, ['docusignAccessCode'], ['application/json'], ['application/json'], Object,
        );
        for (const d of listed.envelopeDocuments.filter((x) => x.documentId !== 'certificate')) {
          const bytes = await envelopesApi.getDocument(accountId, envelopeId, d.documentId);
          writeFileSync(join(folder, 'documents', `${d.documentId}-${d.name}`), Buffer.from(bytes, 'binary'));
        }
        const certificate = await envelopesApi.getDocument(accountId, envelopeId, 'certificate');
        writeFileSync(join(folder, 'certificate.pdf'), Buffer.from(certificate, 'binary'));
        // create, list recipients, the views, list documents, the documents, the certificate
        calls += 1 + 1 + views.length + 1 + listed.envelopeDocuments.filter((x) => x.documentId !== 'certificate').length + 1;
        succeeded += 1;
      }),
    ),
  );
  const wallMs = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return { wallMs, calls, succeeded };
}

/** The SDK script in its own process, as signrun runs in its own: both walls include starting Node and loading. */
async function runSdkProcess(origin, job) {
  const started = performance.now();
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--sdk-script', origin, job, '--envelopes', String(envelopes), '--concurrency', String(concurrency)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`SDK script exited ${code}`);
  return { ...JSON.parse(stdout), wallMs: performance.now() - started };
}

if (process.argv.includes('--sdk-script')) {
  const i = process.argv.indexOf('--sdk-script');
  const result = await runSdk(process.argv[i + 1], process.argv[i + 2]);
  console.log(JSON.stringify(result));
  process.exit(0);
}

const serve = await startServe(latency);
const origin = new URL(serve.rootUrl).origin;
try {
  const stamp = Date.now().toString(36);
  const sdk = await runSdkProcess(origin, `sdk-${stamp}`);
  const plain = await runSignrun(serve.rootUrl, `sr-${stamp}`, []);
  const atSend = await runSignrun(serve.rootUrl, `sr-at-send-${stamp}`, ['--documents', 'at-send']);
  const onDemand = await runSignrun(serve.rootUrl, `sr-on-demand-${stamp}`, ['--signing-urls', 'on-demand']);
  const line = (name, r) =>
    `  ${name.padEnd(44)} ${(r.wallMs / 1000).toFixed(1).padStart(6)} s  ${r.succeeded}/${envelopes} ok  ${(r.calls / envelopes).toFixed(2)} calls/envelope  ${(sdk.wallMs / r.wallMs).toFixed(2)}× the SDK script's speed`;
  console.log(
    [
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${loadavg()[0].toFixed(2)}`,
      `${envelopes} envelopes (2 documents, 2 embedded signers), concurrency ${concurrency}, sandbox latency ${latency} ms; process wall time, start to exit`,
      line('docusign-esign script (8 calls, downloads)', sdk),
      line('signrun run (documents on completion)', plain),
      line('signrun run --documents at-send', atSend),
      line('signrun run --signing-urls on-demand', onDemand),
    ].join('\n'),
  );
} finally {
  await stopServe(serve.child);
}
