import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFile, writeFile, mkdir, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { verifyConnectSignatures } from '../../src/envelope/connect-signature.js';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import { binPath, runCli } from '../helpers/run-cli.js';
import { repoRoot } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { signOverHttp } from '../signing/sign-over-http.js';

// Issue 12, item 8: `signrun listen` checks Connect's HMAC signatures and
// records events in the state; `sync` uses them when the polling rule
// forbids a listing.

const sign = (body: string, key: string) => createHmac('sha256', key).update(body).digest('base64');

describe('Connect signatures', () => {
  const body = Buffer.from('{"event":"envelope-completed"}');
  it('accept a matching X-DocuSign-Signature-N under any key, refuse the rest', () => {
    expect(verifyConnectSignatures(body, { 'x-docusign-signature-1': sign(body.toString(), 'k1') }, ['k1'])).toBe(true);
    // Key rotation: the second header matches the second key.
    expect(
      verifyConnectSignatures(
        body,
        {
          'x-docusign-signature-1': sign(body.toString(), 'old'),
          'x-docusign-signature-2': sign(body.toString(), 'k2'),
        },
        ['k2'],
      ),
    ).toBe(true);
    expect(verifyConnectSignatures(body, { 'x-docusign-signature-1': sign(body.toString(), 'k1') }, ['other'])).toBe(
      false,
    );
    expect(
      verifyConnectSignatures(
        Buffer.from('{"event":"envelope-voided"}'),
        { 'x-docusign-signature-1': sign(body.toString(), 'k1') },
        ['k1'],
      ),
    ).toBe(false);
    expect(verifyConnectSignatures(body, {}, ['k1'])).toBe(false);
    expect(verifyConnectSignatures(body, { 'x-docusign-signature-1': 'short' }, ['k1'])).toBe(false);
  });
});

let sandbox: RunningSandbox;
let listener: ChildProcess;
let listenUrl: string;
let dir: string;
let listenerErr = '';
/** Resolves once the listener's stderr holds the pattern (a barrier on its output, not a poll). */
const stderrSays = (pattern: RegExp) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (!pattern.test(listenerErr)) return;
      listener.stderr!.off('data', check);
      resolve();
    };
    listener.stderr!.on('data', check);
    check();
  });
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pollingRule: 'docusign' });
  dir = await tempDir('signrun-listen-');
  listener = spawn(process.execPath, [binPath, 'listen', '--port', '0', '--out', path.join(dir, 'out')], {
    env: { ...process.env, DOCUSIGN_CONNECT_HMAC_KEYS: 'sandbox-connect-hmac-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  listener.stderr!.setEncoding('utf8').on('data', (d: string) => (listenerErr += d));
  listenUrl = await new Promise<string>((resolve) => {
    let out = '';
    listener.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
});
afterAll(async () => {
  listener?.kill('SIGINT');
  await sandbox?.close();
});

describe('signrun listen', () => {
  it('refuses a message carrying documents (over 8 MiB) with 413 and says which setting to turn off', async () => {
    const body = JSON.stringify({
      event: 'envelope-completed',
      data: { envelopeId: 'big', envelopeSummary: { envelopeDocuments: [{ PDFBytes: 'A'.repeat(9 * 1024 * 1024) }] } },
    });
    const answer = await fetch(`${listenUrl}/hooks`, {
      method: 'POST',
      headers: { 'x-docusign-signature-1': sign(body, 'sandbox-connect-hmac-key') },
      body,
    });
    expect(answer.status).toBe(413);
    // Written before the answer, but it crosses a pipe of its own: wait for the line itself.
    await stderrSays(/refused a Connect message of 9\.0 MiB .*includeDocuments/);
    const events = await readFile(path.join(dir, 'out', '.signrun', 'connect-events.jsonl'), 'utf8').catch(() => '');
    expect(events).not.toContain('"envelopeId":"big"');
  });

  it('records signed events only, and sync uses them within the polling interval', async () => {
    const forged = await fetch(`${listenUrl}/hooks`, {
      method: 'POST',
      headers: { 'x-docusign-signature-1': sign('{}', 'not-the-key') },
      body: '{"event":"envelope-completed","data":{"envelopeId":"x"}}',
    });
    expect(forged.status).toBe(401);

    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(
      path.join(dir, 'hooked.yaml'),
      [
        'version: 1',
        'job: hooked',
        'envelopes:',
        '  - key: emma',
        '    emailSubject: Please sign',
        '    returnUrl: https://example.com/done',
        `    eventNotification: { url: ${listenUrl}/hooks }`,
        '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
        '    recipients:',
        '      - { name: Emma Hook, email: emma@example.com, clientUserId: emma, tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }] }',
        '',
      ].join('\n'),
    );
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    expect((await runCli(['run', dir, '--out', out], { env })).code).toBe(0);
    // A first sync lists (and so starts the 15-minute interval).
    expect((await runCli(['sync', dir, '--out', out], { env })).code).toBe(0);
    const signing = JSON.parse(
      await readFile(path.join(out, 'hooked', 'emma', 'signing.json'), 'utf8'),
    ) as SigningRecord;
    // The barrier: the sandbox says listen answered 200 to envelope-completed (so the event is on disk).
    const delivered = new Promise<void>((resolve) => {
      const onAttempt = (attempt: { event: string; ok: boolean }) => {
        if (attempt.event !== 'envelope-completed' || !attempt.ok) return;
        sandbox.app.sandbox.events.off('connect-attempt', onAttempt);
        resolve();
      };
      sandbox.app.sandbox.events.on('connect-attempt', onAttempt);
    });
    expect(await signOverHttp(signing.recipients[0]!.url!, 'Emma Hook')).toBe('signing_complete');
    await delivered;
    const events = path.join(out, '.signrun', 'connect-events.jsonl');
    expect(await readFile(events, 'utf8')).toContain('"status":"completed"');
    expect(await readFile(events, 'utf8')).not.toContain('"envelopeId":"x"');

    const synced = await runCli(['sync', dir, '--out', out], { env });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stderr).toContain('--force'); // no listing: the polling rule
    const record = JSON.parse(
      await readFile(path.join(out, 'hooked', 'emma', 'envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    expect(record.status).toBe('completed');
    expect(record.collected).toBe(true);
    expect(record.files.some((f) => f.path.endsWith('certificate.pdf'))).toBe(true);
  }, 60_000);
});
