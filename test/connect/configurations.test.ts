import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { defaultConnectHmacKey } from '../../src/sandbox/esignature/connect/hmac-keys.js';
import { verifyConnectSignature } from '../../src/envelope/connect-signature.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { accountId, sandboxApi, signer } from '../signing/sandbox-api.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { authHeader, call, expectApiError } from '../sandbox/helpers/api.js';
import { startReceiver } from './receiver.js';
import { whenEmitted } from '../helpers/barrier.js';

// The account's Connect configurations (`…/connect`, v2.1 Swagger, every
// JSON answer checked by `call`) and the delivery that honours them: Connect
// 2.1's `events`, the legacy envelopeEvents/recipientEvents, publishing on
// or off, includeHMAC — beside an envelope's own eventNotification.

let sandbox: RunningSandbox;
let base: string;
const auth = authHeader();
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, connectRetryBaseMs: 50 });
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => sandbox.close());

async function sendEnvelope(): Promise<string> {
  const api = sandboxApi(sandbox.rootUrl);
  return api.createEnvelope({
    emailSubject: 'Connect configuration test',
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
  });
}

const create = (body: Record<string, unknown>) => call(`${base}/connect`, { method: 'POST', headers: auth, body });
const eventsOf = (received: { raw: string }[]) => received.map((r) => (JSON.parse(r.raw) as { event: string }).event);

describe('Connect configurations', () => {
  it('creates, lists, reads, updates and deletes; a password is never kept or answered', async () => {
    const created = await create({
      name: 'CI listener',
      urlToPublishTo: 'http://127.0.0.1:9/hook',
      configurationType: 'custom',
      allUsers: true,
      allowEnvelopePublish: 'true',
      includeHMAC: true,
      password: 'basic-auth-secret',
      events: ['envelope-sent'],
      eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients'] },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const connectId = created.json.connectId;
    expect(connectId).toMatch(/^\d+$/);
    expect(created.json).toMatchObject({ allUsers: 'true', includeHMAC: 'true', name: 'CI listener' });
    expect(JSON.stringify(created.json)).not.toContain('basic-auth-secret');

    const listed = await call(`${base}/connect`, { headers: auth });
    expect(listed.json.configurations.map((c: { connectId: string }) => c.connectId)).toContain(connectId);
    const updated = await call(`${base}/connect`, {
      method: 'PUT',
      headers: auth,
      body: { connectId, urlToPublishTo: 'http://127.0.0.1:9/other' },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);
    expect(updated.json).toMatchObject({ name: 'CI listener', urlToPublishTo: 'http://127.0.0.1:9/other' });
    const one = await call(`${base}/connect/${connectId}`, { headers: auth });
    expect(one.json).toMatchObject({
      totalRecords: '1',
      configurations: [{ connectId, urlToPublishTo: 'http://127.0.0.1:9/other' }],
    });

    expect((await call(`${base}/connect/${connectId}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expectApiError(
      await call(`${base}/connect/${connectId}`, { headers: auth }),
      400,
      'CONNECT_CONFIGURATION_NOT_FOUND',
    );
    expectApiError(await create({ name: 'no url' }), 400, 'INVALID_REQUEST_BODY');
    // The failures log keeps its own path beside {connectId}.
    expect((await call(`${base}/connect/failures`, { headers: auth })).status).toBe(200);
  });

  it('publishes to each enabled configuration the events it chose, signed when it says includeHMAC, with its connectId', async () => {
    const [modern, legacy, disabled] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
    try {
      const a = await create({
        name: 'Connect 2.1',
        urlToPublishTo: modern.url,
        allUsers: 'true',
        includeHMAC: 'true',
        deliveryMode: 'SIM',
        eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients'] },
        events: ['envelope-sent', 'envelope-completed'],
      });
      const b = await create({
        name: 'Legacy',
        urlToPublishTo: legacy.url,
        allUsers: 'true',
        includeHMAC: 'false',
        envelopeEvents: ['Sent'],
        recipientEvents: ['Completed'],
      });
      await create({
        name: 'Switched off',
        urlToPublishTo: disabled.url,
        allUsers: 'true',
        allowEnvelopePublish: 'false',
        events: ['envelope-sent', 'recipient-completed', 'envelope-completed'],
      });
      const envelopeId = await sendEnvelope();
      const api = sandboxApi(sandbox.rootUrl);
      const url = await api.signingUrl(
        envelopeId,
        { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
        'http://127.0.0.1:9/back',
      );
      expect(await signOverHttp(url, 'Alice Martin')).toBe('signing_complete');
      await modern.waitFor((r) => r.length >= 2);
      await legacy.waitFor((r) => r.length >= 2);

      expect(eventsOf(modern.accepted())).toEqual(['envelope-sent', 'envelope-completed']);
      for (const r of modern.accepted()) {
        expect(
          verifyConnectSignature(r.raw, defaultConnectHmacKey, r.headers['x-docusign-signature-1'] as string),
        ).toBe(true);
        expect(JSON.parse(r.raw)).toMatchObject({ configurationId: Number(a.json.connectId), data: { envelopeId } });
      }
      expect(eventsOf(legacy.accepted())).toEqual(['envelope-sent', 'recipient-completed']);
      for (const r of legacy.accepted()) {
        expect(r.headers['x-docusign-signature-1']).toBeUndefined();
        expect(JSON.parse(r.raw).configurationId).toBe(Number(b.json.connectId));
      }
      // All of an event's deliveries are queued together: the switched-off one has none queued.
      const queued = sandbox.app.sandbox.db
        .prepare('SELECT COUNT(*) AS n FROM connect_deliveries WHERE url = ?')
        .get(disabled.url) as { n: number };
      expect(queued.n).toBe(0);
      expect(disabled.received).toEqual([]);
    } finally {
      await Promise.all([modern.close(), legacy.close(), disabled.close()]);
    }
  });

  it('the failure log names the configuration whose delivery failed (its connectId), not 0', async () => {
    const down = await startReceiver();
    try {
      down.failNext(1_000);
      const configuration = await create({
        name: 'Down',
        urlToPublishTo: down.url,
        allUsers: 'true',
        events: ['envelope-sent'],
      });
      const connectId = String(configuration.json.connectId);
      const failedOnce = (): boolean =>
        (
          sandbox.app.sandbox.db
            .prepare('SELECT COUNT(*) AS n FROM connect_deliveries WHERE url = ? AND attempts > 0')
            .get(down.url) as { n: number }
        ).n > 0;
      const envelopeId = await sendEnvelope();
      await whenEmitted(sandbox.app.sandbox.events, 'connect-attempt', failedOnce);
      const log = await call(`${base}/connect/failures`, { headers: auth });
      expect(log.status).toBe(200);
      const failure = (log.json.failures as { envelopeId: string; configUrl: string; connectId: string }[]).find(
        (f) => f.envelopeId === envelopeId && f.configUrl === down.url,
      );
      expect(failure?.connectId).toBe(connectId);
      expect(connectId).not.toBe('0');
      await call(`${base}/connect/${connectId}`, { method: 'DELETE', headers: auth });
    } finally {
      await down.close();
    }
  });

  it('publishes only for the users a configuration names (userIds) when it is not for all users', async () => {
    const receiver = await startReceiver();
    const other = await startReceiver();
    try {
      const seedUser = (await call(`${sandbox.rootUrl}/login_information`, { headers: auth })).json.loginAccounts[0]
        .userId;
      await create({
        name: 'Not us',
        urlToPublishTo: other.url,
        allUsers: 'false',
        userIds: ['00000000-0000-4000-8000-000000000000'],
        events: ['envelope-sent'],
      });
      await create({
        name: 'Us',
        urlToPublishTo: receiver.url,
        allUsers: 'false',
        userIds: [seedUser],
        events: ['envelope-sent'],
      });
      await sendEnvelope();
      await receiver.waitFor((r) => r.length >= 1);
      const queued = sandbox.app.sandbox.db
        .prepare('SELECT COUNT(*) AS n FROM connect_deliveries WHERE url = ?')
        .get(other.url) as { n: number };
      expect(queued.n).toBe(0);
    } finally {
      await Promise.all([receiver.close(), other.close()]);
    }
  });
});
