import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { SigningJson } from '../../src/output/records.js';
import { sandboxEnv, tempDir } from './run-helpers.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';

let sandbox: RunningSandbox;
let outDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  outDir = await tempDir('signrun-signurl-');
  const ran = await runCli(
    ['run', 'examples/template-contract.yaml', 'examples/embedded-signing.yaml', '--out', outDir],
    { env: sandboxEnv(sandbox) },
  );
  if (ran.code !== 0) throw new Error(`run failed: ${ran.stderr}`);
});
afterAll(async () => {
  await sandbox.close();
});

async function signing(folder: string): Promise<SigningJson> {
  return JSON.parse(await readFile(path.join(outDir, folder, 'signing.json'), 'utf8')) as SigningJson;
}

describe('signrun sign-url', () => {
  it('prints a fresh, working signing address for the recipient asked for, and records it (0600)', async () => {
    const before = await signing('employment-contract-2026/contract-lucia-moreno');
    const old = before.recipients.find((r) => r.clientUserId === 'mgr-0003')?.url;
    const result = await runCli(['sign-url', outDir, 'contract-lucia-moreno', 'mgr-0003'], {
      env: sandboxEnv(sandbox),
    });
    expect(result.code, result.stderr).toBe(0);
    const url = result.stdout.trim();
    expect(url).toMatch(new RegExp(`^${sandbox.origin.replace(/[.]/g, '\\.')}/signing/\\S+$`));
    expect(url).not.toBe(old);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    // A live token opens a signing session (303 to /signing/s/<session>); a dead one would not.
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(/^\/signing\/s\//);
    const after = await signing('employment-contract-2026/contract-lucia-moreno');
    expect(after.recipients.find((r) => r.clientUserId === 'mgr-0003')?.url).toBe(url);
    expect(
      (await stat(path.join(outDir, 'employment-contract-2026/contract-lucia-moreno/signing.json'))).mode & 0o777,
    ).toBe(0o600);
  });

  it('finds the recipient by email and the envelope by job/key', async () => {
    const result = await runCli(
      ['sign-url', outDir, 'offer-jean-francais-2026/offer-jean-francais', 'emily.carter@example.com'],
      { env: sandboxEnv(sandbox) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toContain('/signing/');
  });

  it('with no recipient named, gives the address of the one whose turn it is, not of one who already signed', async () => {
    // Both roles are "ready" in signing.json (routing order 1); the employee signs first.
    const env = { env: sandboxEnv(sandbox) };
    const employee = await runCli(['sign-url', outDir, 'contract-lucia-moreno', 'emp-0107'], env);
    expect(employee.code, employee.stderr).toBe(0);
    expect(await signOverHttp(employee.stdout.trim(), 'Lucía Moreno')).toBe('signing_complete');
    const next = await runCli(['sign-url', outDir, 'contract-lucia-moreno'], env);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain('Thomas Keller <thomas.keller@example.com> (mgr-0003)');
    // The address opens the employer's signing session, not the "Nothing to sign" page (409).
    expect((await fetch(next.stdout.trim(), { redirect: 'manual' })).status).toBe(303);
  });

  it('an unknown recipient or envelope is exit 2 with its code', async () => {
    const noRecipient = await runCli(['sign-url', outDir, 'contract-lucia-moreno', 'nobody@example.com'], {
      env: sandboxEnv(sandbox),
    });
    expect(noRecipient.code).toBe(2);
    expect(noRecipient.stderr).toContain('SR_RECIPIENT_NOT_FOUND');
    const noEnvelope = await runCli(['sign-url', outDir, 'no-such-key'], { env: sandboxEnv(sandbox) });
    expect(noEnvelope.code).toBe(2);
    expect(noEnvelope.stderr).toContain('SR_OUTPUT_NOT_FOUND');
  });

  it('an envelope voided since the run: says it can no longer be signed and what to do, not an HTTP error to retry', async () => {
    const envelope = JSON.parse(
      await readFile(path.join(outDir, 'offer-jean-francais-2026/offer-jean-francais/envelope.json'), 'utf8'),
    ) as { envelopeId: string };
    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
    try {
      await (await client.login()).voidEnvelope(envelope.envelopeId, 'The offer was withdrawn');
    } finally {
      client.close();
    }
    const result = await runCli(['sign-url', outDir, 'offer-jean-francais', 'emily.carter@example.com'], {
      env: sandboxEnv(sandbox),
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`envelope ${envelope.envelopeId} can no longer be signed by Emily Carter`);
    expect(result.stderr).toContain('The envelope is voided.');
    expect(result.stderr).toContain('npx signrun sync');
    expect(result.stderr).not.toMatch(/retry later/);
  });
});
