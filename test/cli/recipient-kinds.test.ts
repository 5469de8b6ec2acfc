import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import type { Browser } from 'playwright-core';
import {
  sharedBrowser,
  releaseBrowser,
  newPage,
  returnedEvent,
  signAllTabs,
  startReturnServer,
} from '../helpers/browser.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from './run-helpers.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { tool } from '../signing/pdf-tools.js';

// Issue 20, "Done when": a job with a signer (with an access code from the
// environment), an in-person signer with a host, a witness, a certified
// delivery and a carbon copy in three routing orders runs through the CLI
// against the sandbox, is completed in order (the signer and the in-person
// signer in Chromium), and the certificate, the
// outbox and `status` show each person's part; the access code appears in
// no output, log or report.

let sandbox: RunningSandbox;
let back: Awaited<ReturnType<typeof startReturnServer>>;
let browser: Browser;
const accessCode = 'Lease-4711-Zebra';

beforeAll(async () => {
  [sandbox, back, browser] = await Promise.all([startSandbox({ port: 0 }), startReturnServer(), sharedBrowser()]);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await back?.close();
  await sandbox?.close();
});

async function leaseJob(): Promise<string> {
  const dir = await tempDir('signrun-kinds-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/lease.pdf'));
  // A document in HTML: DocuSign converts it, and so does the sandbox; the signer's tab goes by anchor.
  await writeFile(
    path.join(dir, 'docs/house-rules.html'),
    '<h1>House rules</h1><p>No pets in the flats.</p><p>Quiet hours from 22:00.</p><p>Tenant signature:</p>',
  );
  await writeFile(
    path.join(dir, 'lease.yaml'),
    `version: 1
job: leases
defaults:
  emailSubject: Your lease
  returnUrl: ${back.url}
envelopes:
  - key: flat-12
    documents: [{ name: lease.pdf, file: docs/lease.pdf }, { name: house-rules.html, file: docs/house-rules.html }]
    recipients:
      signers:
        - name: Sam Signer
          email: sam@example.com
          clientUserId: sam
          routingOrder: 1
          accessCode: \${env.LEASE_CODE}
          note: Your access code was given to you by phone.
          tabs:
            signHereTabs:
              - { pageNumber: 2, xPosition: 60, yPosition: 200 }
              - { anchorString: "Tenant signature:", anchorXOffset: 120, anchorYOffset: -10 }
      carbonCopies:
        - { name: Hana Records, email: hr@example.com, routingOrder: 3 }
      certifiedDeliveries:
        - { name: Lena Legal, email: legal@example.com, routingOrder: 2 }
      inPersonSigners:
        - hostName: Hilda Host
          hostEmail: hilda@example.com
          signerName: Ivan Inperson
          clientUserId: ivan
          routingOrder: 1
          tabs: { signHereTabs: [{ pageNumber: 2, xPosition: 300, yPosition: 200 }] }
      witnesses:
        - name: Wendy Witness
          email: wendy@example.com
          witnessFor: 1
          clientUserId: wendy
          routingOrder: 2
          tabs: { signHereTabs: [{ pageNumber: 2, xPosition: 60, yPosition: 300 }] }
`,
  );
  return dir;
}

interface Message {
  to: string;
  kind: string;
  links: string[];
}
async function outbox(): Promise<Message[]> {
  const res = await fetch(`${sandbox.origin}/sandbox/outbox?format=json`);
  return ((await res.json()) as { messages: Message[] }).messages;
}

/** Every file under a folder, as text. */
async function allText(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) text += await readFile(path.join(entry.parentPath, entry.name), 'latin1');
  return text;
}

describe('every recipient kind from a job file', () => {
  // One job, validated and run once: the status test reads the envelope as
  // sent, then the routing test signs it in order.
  let dir: string;
  let out: string;
  let env: Record<string, string>;
  const logs: string[] = [];
  const cli = async (args: string[]) => {
    const r = await runCli(args, { env, cwd: dir });
    logs.push(r.stdout, r.stderr);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    return r;
  };
  beforeAll(async () => {
    dir = await leaseJob();
    out = path.join(dir, 'out');
    env = { ...sandboxEnv(sandbox), LEASE_CODE: accessCode };
    await cli(['validate', '.']);
    await cli(['run', '.', '--out', out]);
  });

  // Before anyone has signed (the next test signs the same envelope).
  it('status names what each kind still has to do', async () => {
    const status = await cli(['status', '.', '--out', out]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('still to sign: Sam Signer');
    expect(status.stdout).toContain('still to view the documents (certified delivery): Lena Legal');
    expect(status.stdout).toContain('still to sign (witness): Wendy Witness');
    // A carbon copy never has anything to do.
    expect(status.stdout).not.toContain('Hana Records');
    // The reports name each one's part too, and leave the copy out.
    const md = await readFile(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('Wendy Witness <wendy@example.com> (witness, embedded)');
    expect(md).toContain('Lena Legal <legal@example.com> (certified delivery)');
    expect(md).not.toContain('Hana Records');
    const html = await readFile(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('Ivan Inperson (in person signer)');
    expect(html).not.toContain('Hana Records');
  });

  it('routes a signer, an in-person signer, a witness, a certified delivery and a carbon copy in order', async () => {
    const signing = JSON.parse(await readFile(path.join(out, 'leases/flat-12/signing.json'), 'utf8')) as SigningRecord;
    const entry = (clientUserId: string) => signing.recipients.find((r) => r.clientUserId === clientUserId)!;
    // Order 1 is in turn (signer, in-person signer, whose session is the host's); the witness waits.
    expect(entry('sam')).toMatchObject({ recipientId: '1', state: 'ready', userName: 'Sam Signer' });
    expect(entry('ivan')).toMatchObject({
      recipientId: '4',
      state: 'ready',
      kind: 'inPersonSigner',
      userName: 'Hilda Host',
      email: 'hilda@example.com',
      signerName: 'Ivan Inperson',
    });
    expect(entry('wendy')).toMatchObject({ recipientId: '5', state: 'waiting-for-turn', kind: 'witness' });
    expect(await outbox()).toEqual([]);

    // Sam signs in Chromium: the documents stay hidden until the code is entered.
    {
      const { page, context } = await newPage(browser);
      await page.goto(entry('sam').url!);
      await page.getByLabel('Access code').waitFor();
      expect(await page.locator('#sign-form').count()).toBe(0);
      await page.getByLabel('Access code').fill('guess');
      await page.getByRole('button', { name: 'Validate' }).click();
      // Playwright waits on the page itself (a loaded machine may take seconds).
      await page
        .getByRole('alert')
        .filter({ hasText: /attempt/ })
        .waitFor();
      await page.getByLabel('Access code').fill(accessCode);
      await page.getByRole('button', { name: 'Validate' }).click();
      // One tab on the lease, one at the anchor of the converted HTML.
      await page.getByRole('button', { name: 'Sign here' }).nth(1).waitFor();
      await signAllTabs(page);
      expect(await returnedEvent(page, back.url)).toBe('signing_complete');
      await context.close();
    }

    // Ivan signs in Chromium, on Hilda's device.
    {
      const { page, context } = await newPage(browser);
      await page.goto(entry('ivan').url!);
      await page
        .getByText(/Hilda Host.*Ivan Inperson/)
        .first()
        .waitFor();
      await signAllTabs(page);
      expect(await returnedEvent(page, back.url)).toBe('signing_complete');
      await context.close();
    }

    // Order 2: the witness (embedded: a fresh address from sign-url) and the certified delivery (by email).
    expect((await outbox()).map((m) => [m.to, m.kind])).toEqual([['legal@example.com', 'envelope-notification']]);
    const url = (await cli(['sign-url', out, 'flat-12', 'wendy'])).stdout.match(/https?:\/\/\S+/)![0];
    const wendy = await openSigningLink(url);
    const wendySigned = await postForm(`${wendy.sessionUrl}/sign`, wendy.cookie, {
      signatureName: 'Wendy Witness',
      csrfToken: wendy.csrf,
    });
    expect(wendySigned.status).toBe(303);
    const lena = await openSigningLink((await outbox())[0]!.links[0]!);
    const viewed = await postForm(`${lena.sessionUrl}/act`, lena.cookie, { csrfToken: lena.csrf });
    expect(new URL(viewed.headers.get('location')!).searchParams.get('event')).toBe('viewing_complete');

    // Order 3: the carbon copy is told, and the envelope completes without it acting.
    expect((await outbox()).filter((m) => m.to === 'hr@example.com').map((m) => m.kind)).toEqual([
      'envelope-notification',
      'envelope-completed',
    ]);

    await cli(['sync', '.', '--out', out]);
    const record = JSON.parse(await readFile(path.join(out, 'leases/flat-12/envelope.json'), 'utf8')) as EnvelopeRecord;
    expect(record.status).toBe('completed');
    expect(record.recipients.map((r) => [r.recipientId, r.kind, r.status])).toEqual([
      ['1', 'signer', 'completed'],
      ['2', 'carbonCopy', 'completed'],
      ['3', 'certifiedDelivery', 'completed'],
      ['4', 'inPersonSigner', 'completed'],
      ['5', 'witness', 'completed'],
    ]);
    const report = await readReport(out);
    expect(report.envelopes[0]!.recipients.map((r) => r.kind)).toEqual([
      'signer',
      'carbonCopy',
      'certifiedDelivery',
      'inPersonSigner',
      'witness',
    ]);
    // The HTML document comes back as a signed PDF of its text.
    const rules = record.files.find((f) => f.path.includes('/documents/2-'))!;
    const rulesText = (await tool('pdftotext', ['-layout', path.join(out, rules.path), '-'])).out;
    for (const line of ['House rules', 'No pets in the flats.', 'Quiet hours from 22:00.', 'Tenant signature:'])
      expect(rulesText).toContain(line);
    expect((await tool('pdfsig', [path.join(out, rules.path)])).out).toMatch(/Signature is Valid/);
    const certificate = record.files.find((f) => f.path.endsWith('certificate.pdf'))!;
    const text = (await tool('pdftotext', [path.join(out, certificate.path), '-'])).out.replace(/\s+/g, ' ');
    for (const part of [
      'Carbon copy',
      'Certified delivery',
      'In person signer',
      'hosted by Hilda Host',
      'Witness for Sam Signer',
    ])
      expect(text).toContain(part);

    // The access code is in no output file, report, log or console line.
    const everything = (await allText(out)) + logs.join('\n');
    expect(everything).not.toContain(accessCode);
  });
});
