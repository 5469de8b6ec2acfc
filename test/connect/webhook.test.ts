import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { defaultConnectHmacKey } from '../../src/sandbox/esignature/connect/hmac-keys.js';
import { verifyConnectSignature } from '../../src/envelope/connect-signature.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { accountId, sandboxApi, signer } from '../signing/sandbox-api.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { startReceiver } from './receiver.js';
import { whenEmitted } from '../helpers/barrier.js';
import { swaggerErrors } from '../sandbox/helpers/swagger.js';

// Connect against the real sandbox: an envelope with eventNotification.url,
// a receiver on loopback that checks every HMAC and the order of events.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function envelopeWithCallback(
  api: ReturnType<typeof sandboxApi>,
  url: string,
  extra: Record<string, unknown> = {},
) {
  return api.createEnvelope({
    emailSubject: 'Connect test',
    status: 'sent',
    documents: [
      {
        documentId: '1',
        name: 'c.pdf',
        fileExtension: 'pdf',
        documentBase64: Buffer.from(await samplePdf('connect', 1)).toString('base64'),
      },
    ],
    recipients: {
      signers: [
        signer('1', 'Alice Martin', '1', [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '300' }]),
      ],
    },
    eventNotification: { url, ...extra },
  });
}

const signingView = { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' };
const returnUrl = 'http://127.0.0.1:9/back';
const fullOrder = [
  'envelope-sent',
  'recipient-sent',
  'recipient-delivered',
  'envelope-delivered',
  'recipient-completed',
  'envelope-completed',
];

function eventsOf(received: { raw: string }[]): string[] {
  return received.map((r) => (JSON.parse(r.raw) as { event: string }).event);
}

describe('Connect event notifications', () => {
  // One sandbox for the tests that need no seed or data folder of their own:
  // each has its own envelope and receiver. The refused address comes first,
  // so the attempts it counts are its envelope's only.
  describe('on one sandbox', () => {
    let sandbox: RunningSandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, connectRetryBaseMs: 50 });
    });
    afterAll(async () => {
      await sandbox.close();
    });

    it('never calls an address outside loopback and the allow list, and lists it as a failure', async () => {
      const api = sandboxApi(sandbox.rootUrl);
      const attempts: boolean[] = [];
      const onAttempt = (attempt: { ok: boolean }) => attempts.push(attempt.ok);
      sandbox.app.sandbox.events.on('connect-attempt', onAttempt);
      cleanups.push(async () => void sandbox.app.sandbox.events.off('connect-attempt', onAttempt));
      const envelopeId = await envelopeWithCallback(api, 'http://169.254.169.254/latest/meta-data');
      // Two events queued at creation (envelope-sent, recipient-sent), each refused at its first attempt.
      await whenEmitted(sandbox.app.sandbox.events, 'connect-attempt', () => attempts.length >= 2);
      expect(attempts).toEqual([false, false]);
      const failures = (
        await api.call<{ failures: { envelopeId: string; error: string }[] }>('GET', '/connect/failures')
      ).json.failures;
      expect(failures.map((f) => f.envelopeId)).toEqual([envelopeId, envelopeId]);
      expect(failures[0]?.error).toContain('destination refused');
    });

    it('posts every event, in order, signed with the account HMAC key', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const api = sandboxApi(sandbox.rootUrl);
      const envelopeId = await envelopeWithCallback(api, receiver.url);
      expect(await signOverHttp(await api.signingUrl(envelopeId, signingView, returnUrl), 'Alice Martin')).toBe(
        'signing_complete',
      );
      await receiver.waitFor((a) => a.length >= 6);

      expect(eventsOf(receiver.accepted())).toEqual(fullOrder);
      for (const r of receiver.received) {
        expect(
          verifyConnectSignature(r.raw, defaultConnectHmacKey, r.headers['x-docusign-signature-1'] as string),
        ).toBe(true);
        const message = JSON.parse(r.raw) as { data: { envelopeId: string; accountId: string }; apiVersion: string };
        expect(message.data.envelopeId).toBe(envelopeId);
      }
      const last = JSON.parse(receiver.accepted()[5]!.raw) as { data: { envelopeSummary: { status: string } } };
      expect(last.data.envelopeSummary.status).toBe('completed');
    });

    it('notifies a voided envelope', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const api = sandboxApi(sandbox.rootUrl);
      const envelopeId = await envelopeWithCallback(api, receiver.url);
      const voided = await api.call('PUT', `/envelopes/${envelopeId}`, {
        status: 'voided',
        voidedReason: 'Wrong salary',
      });
      expect(voided.status).toBe(200);
      await receiver.waitFor((a) => a.length >= 3);
      expect(eventsOf(receiver.accepted())).toEqual(['envelope-sent', 'recipient-sent', 'envelope-voided']);
    });

    it('sends only the events an envelope asks for (envelopeEvents)', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const api = sandboxApi(sandbox.rootUrl);
      const envelopeId = await envelopeWithCallback(api, receiver.url, {
        envelopeEvents: [{ envelopeEventStatusCode: 'completed' }],
      });
      await signOverHttp(await api.signingUrl(envelopeId, signingView, returnUrl), 'Alice Martin');
      await receiver.waitFor((a) => a.length >= 1);
      // Every event of the signing was committed (and queued, or not) before
      // its answer: the queue holds all that will ever be sent, no need to wait
      // and see whether more arrives.
      const queued = sandbox.app.sandbox.db
        .prepare('SELECT event FROM connect_deliveries WHERE envelope_id = ?')
        .pluck()
        .all(envelopeId);
      expect(queued).toEqual(['envelope-completed']);
      expect(eventsOf(receiver.accepted())).toEqual(['envelope-completed']);
    });

    it('refuses the failure log to callers of another account', async () => {
      const res = await fetch(`${sandbox.rootUrl}/accounts/00000000-0000-0000-0000-000000000000/connect/failures`, {
        headers: {
          'x-docusign-authentication': JSON.stringify({
            Username: 'sandbox@signrun.test',
            Password: 'sandbox-password',
            IntegratorKey: 'sandbox-integrator-key',
          }),
        },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errorCode: string }).errorCode).toBe('USER_LACKS_MEMBERSHIP');
      const anonymous = await fetch(
        `${sandbox.rootUrl}/accounts/00000000-0000-0000-0000-000000000000/connect/failures`,
      );
      expect(anonymous.status).toBe(401);
    });
  });
  it("signs with the account's connectHmacKey from the seed", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-seed-'));
    const seedFile = join(dir, 'seed.yaml');
    writeFileSync(
      seedFile,
      [
        'integratorKeys: [sandbox-integrator-key]',
        'accounts:',
        `  - accountId: ${accountId}`,
        '    accountName: Seeded Corp',
        '    connectHmacKey: seeded-hmac-key-42',
        '    users: [{ userName: sandbox@signrun.test, password: sandbox-password }]',
        '',
      ].join('\n'),
    );
    const receiver = await startReceiver();
    const sandbox = await startSandbox({ port: 0, seedFile, connectRetryBaseMs: 50 });
    cleanups.push(receiver.close, () => sandbox.close());
    const api = sandboxApi(sandbox.rootUrl);
    await envelopeWithCallback(api, receiver.url);
    await receiver.waitFor((a) => a.length >= 2);
    for (const r of receiver.received) {
      const header = r.headers['x-docusign-signature-1'] as string;
      expect(verifyConnectSignature(r.raw, 'seeded-hmac-key-42', header)).toBe(true);
      expect(verifyConnectSignature(r.raw, defaultConnectHmacKey, header)).toBe(false);
    }
  });

  it('a receiver failing three times, with a sandbox restart in between, still gets every event in order', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const dataDir = mkdtempSync(join(tmpdir(), 'signrun-connect-restart-'));
    receiver.failNext(3);

    let sandbox = await startSandbox({ port: 0, dataDir, connectRetryBaseMs: 300 });
    let api = sandboxApi(sandbox.rootUrl);
    const envelopeId = await envelopeWithCallback(api, receiver.url);
    await receiver.waitForReceived((r) => r.length >= 3);
    expect(receiver.received.map((r) => r.status)).toEqual([503, 503, 503]);

    const failures = await api.call<{
      failures: { envelopeId: string; error: string; retryCount: string }[];
      totalRecords: string;
    }>('GET', '/connect/failures');
    expect(failures.status).toBe(200);
    expect(swaggerErrors('connectLogs', failures.json)).toEqual([]);
    expect(failures.json.failures[0]?.envelopeId).toBe(envelopeId);
    expect(failures.json.failures[0]?.error).toContain('503');
    expect(Number(failures.json.failures[0]?.retryCount)).toBeGreaterThanOrEqual(1);

    // Stop the sandbox while deliveries are still pending.
    await sandbox.close();
    expect(receiver.accepted()).toHaveLength(0);

    sandbox = await startSandbox({ port: 0, dataDir, connectRetryBaseMs: 300 });
    cleanups.push(() => sandbox.close());
    api = sandboxApi(sandbox.rootUrl);
    expect(await signOverHttp(await api.signingUrl(envelopeId, signingView, returnUrl), 'Alice Martin')).toBe(
      'signing_complete',
    );
    await receiver.waitFor((a) => a.length >= 6);
    // The receiver has the last POST before the sandbox has its answer: the
    // failure log below is read once the queue has settled.
    const undelivered = () =>
      sandbox.app.sandbox.db
        .prepare(`SELECT COUNT(*) FROM connect_deliveries WHERE status != 'delivered'`)
        .pluck()
        .get() as number;
    await whenEmitted(sandbox.app.sandbox.events, 'connect-attempt', () => undelivered() === 0);

    expect(eventsOf(receiver.accepted())).toEqual(fullOrder);
    for (const r of receiver.received) {
      expect(verifyConnectSignature(r.raw, defaultConnectHmacKey, r.headers['x-docusign-signature-1'] as string)).toBe(
        true,
      );
    }
    // The first message was tried four times: retryCount 0, 1, 2, then 3 when it got through.
    const attemptsOfFirst = receiver.received.filter(
      (r) => (JSON.parse(r.raw) as { event: string }).event === 'envelope-sent',
    );
    expect(attemptsOfFirst.map((r) => (JSON.parse(r.raw) as { retryCount: number }).retryCount)).toEqual([0, 1, 2, 3]);
    const after = await api.call<{ failures: unknown[] }>('GET', '/connect/failures');
    expect(after.json.failures).toEqual([]);
  });

  it('catches up at start on events committed but never queued (process killed in between)', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const dataDir = mkdtempSync(join(tmpdir(), 'signrun-connect-catchup-'));
    let sandbox = await startSandbox({ port: 0, dataDir, connectRetryBaseMs: 50 });
    const envelopeId = await envelopeWithCallback(sandboxApi(sandbox.rootUrl), receiver.url);
    await receiver.waitFor((a) => a.length >= 2);
    // Until the sandbox has read both answers, a close would send them again
    // (at least once): wait for the queue to say delivered.
    const delivered = () =>
      (
        sandbox.app.sandbox.db
          .prepare(`SELECT COUNT(*) AS n FROM connect_deliveries WHERE status = 'delivered'`)
          .get() as { n: number }
      ).n;
    await whenEmitted(sandbox.app.sandbox.events, 'connect-attempt', () => delivered() >= 2);
    expect(delivered()).toBe(2);
    await sandbox.close();
    // What the lifecycle commits, written as if the process died before Connect saw it.
    const db = new Database(join(dataDir, 'sandbox.sqlite'));
    db.prepare(
      `INSERT INTO events (envelope_id, account_id, recipient_id, type, at) VALUES (?, ?, '1', 'recipient-delivered', ?)`,
    ).run(envelopeId, accountId, Date.now());
    db.close();
    sandbox = await startSandbox({ port: 0, dataDir, connectRetryBaseMs: 50 });
    cleanups.push(() => sandbox.close());
    await receiver.waitFor((a) => a.length >= 3);
    expect(eventsOf(receiver.accepted())).toEqual(['envelope-sent', 'recipient-sent', 'recipient-delivered']);
  });
});
