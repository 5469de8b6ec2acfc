import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { defaultConnectHmacKey } from '../../src/sandbox/esignature/connect/hmac-keys.js';
import { verifyConnectSignature } from '../../src/envelope/connect-signature.js';
import type { EnvelopeRecipients } from '../../src/envelope/index.js';
import { samplePdf } from '../signing/pdf-tools.js';
import { sandboxApi } from '../signing/sandbox-api.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { swaggerErrors } from './helpers/swagger.js';
import { startReceiver } from '../connect/receiver.js';

// Issue 24 item 2: what the sandbox's Connect messages carry of the
// recipients follows the destination's `eventData.includeData`, as
// DocuSign's does (Swagger #/definitions/connectEventData; DocuSign's sample
// message spec/connect.schema-v2.json has `data.envelopeSummary.recipients.signers[].tabs`):
// `tabs` → every recipient with its tabs and their final values, exactly as
// GET …/recipients?include_tabs=true answers; `recipients` → the recipients
// without tabs; neither → their statuses, as before.

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
interface Message {
  event: string;
  apiVersion: string;
  uri: string;
  data: { envelopeId: string; envelopeSummary: { status: string; recipients: EnvelopeRecipients } };
}

let sandbox: RunningSandbox;
const receivers: Receiver[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, connectRetryBaseMs: 50 });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await sandbox?.close();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const api = () => sandboxApi(sandbox.rootUrl);

/** An account Connect configuration publishing envelope-completed to `url`, signed, asking for `includeData`. */
async function configure(url: string, includeData: string[] | undefined): Promise<void> {
  const created = await api().call('POST', '/connect', {
    name: `listener ${includeData?.join('+') ?? 'default'} ${url}`,
    urlToPublishTo: url,
    allUsers: 'true',
    allowEnvelopePublish: 'true',
    includeHMAC: 'true',
    events: ['envelope-completed'],
    eventData: { version: 'restv2.1', format: 'json', ...(includeData ? { includeData } : {}) },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
}

const at = (y: string) => ({ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: y });

/** Sends an envelope: a signer with a text tab to type in, a locked prefilled one and a signature; a carbon copy. */
async function sendWithTextTabs(extra: Record<string, unknown> = {}): Promise<string> {
  return api().createEnvelope({
    emailSubject: 'Connect tabs',
    status: 'sent',
    documents: [
      {
        documentId: '1',
        name: 'c.pdf',
        fileExtension: 'pdf',
        documentBase64: Buffer.from(await samplePdf('connect tabs', 1)).toString('base64'),
      },
    ],
    recipients: {
      signers: [
        {
          recipientId: '1',
          name: 'Alice Martin',
          email: 'alice.martin@example.com',
          clientUserId: 'alice',
          routingOrder: '1',
          roleName: 'employee',
          tabs: {
            signHereTabs: [at('300')],
            textTabs: [
              { ...at('400'), tabLabel: 'Preferred name', required: 'false' },
              { ...at('450'), tabLabel: 'Employee ID', value: 'E-42', locked: 'true' },
            ],
          },
        },
      ],
      carbonCopies: [{ recipientId: '2', name: 'Acme HR', email: 'hr@example.com', routingOrder: '2' }],
    },
    ...extra,
  });
}

/** Signs as Alice over HTTP, typing `preferred` into her text tab, as the signing page's form does. */
async function signTyping(envelopeId: string, preferred: string): Promise<void> {
  const tabs = await api().call<{ textTabs: { tabId: string; tabLabel: string }[] }>(
    'GET',
    `/envelopes/${envelopeId}/recipients/1/tabs`,
  );
  const tabId = tabs.json.textTabs.find((t) => t.tabLabel === 'Preferred name')!.tabId;
  const url = await api().signingUrl(
    envelopeId,
    { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'alice' },
    'http://127.0.0.1:9/back',
  );
  const link = await openSigningLink(url);
  const res = await postForm(`${link.sessionUrl}/sign`, link.cookie, {
    signatureName: 'Alice Martin',
    csrfToken: link.csrf,
    fieldsShown: '1',
    [`tab.${tabId}`]: preferred,
  });
  expect(res.status, await res.text()).toBe(303);
  expect(new URL(res.headers.get('location')!).searchParams.get('event')).toBe('signing_complete');
}

/** The envelope-completed message a receiver accepted for the envelope (once it has: no sleep, no polling). */
async function completedMessage(r: Receiver, envelopeId: string): Promise<{ message: Message; raw: string }> {
  const of = (raw: string) => JSON.parse(raw) as Message;
  const matches = (raw: string) => {
    const m = of(raw);
    return m.event === 'envelope-completed' && m.data.envelopeId === envelopeId;
  };
  await r.waitFor((accepted) => accepted.some((a) => matches(a.raw)));
  const found = r.accepted().find((a) => matches(a.raw))!;
  expect(
    verifyConnectSignature(found.raw, defaultConnectHmacKey, found.headers['x-docusign-signature-1'] as string),
  ).toBe(true);
  return { message: of(found.raw), raw: found.raw };
}

describe("Connect's envelopeSummary follows eventData.includeData", () => {
  it('tabs: recipients with their tabs and final values, as GET …/recipients?include_tabs=true; recipients: without tabs; neither: statuses', async () => {
    const [withTabs, recipientsOnly, neither] = [await receiver(), await receiver(), await receiver()];
    await configure(withTabs.url, ['recipients', 'tabs']);
    await configure(recipientsOnly.url, ['recipients']);
    await configure(neither.url, undefined);
    const envelopeId = await sendWithTextTabs();
    await signTyping(envelopeId, 'Amy');

    const answered = await api().call<EnvelopeRecipients>(
      'GET',
      `/envelopes/${envelopeId}/recipients?include_tabs=true`,
    );
    expect(answered.status).toBe(200);

    const tabbedMessage = (await completedMessage(withTabs, envelopeId)).message;
    // eventData.version restv2.1: DocuSign's v2.1 message (spec/connect.schema-v2.json's apiVersion), its uri on v2.1.
    expect(tabbedMessage.apiVersion).toBe('v2.1');
    expect(tabbedMessage.uri).toMatch(new RegExp(`^/restapi/v2\\.1/accounts/[^/]+/envelopes/${envelopeId}$`));
    const tabbed = tabbedMessage.data.envelopeSummary;
    expect(tabbed.status).toBe('completed');
    const alice = tabbed.recipients.signers![0]!;
    const text = new Map((alice.tabs?.textTabs ?? []).map((t) => [t.tabLabel, t.value]));
    expect(text.get('Preferred name')).toBe('Amy');
    expect(text.get('Employee ID')).toBe('E-42');
    expect(alice.tabs?.signHereTabs).toHaveLength(1);
    expect(alice.roleName).toBe('employee');
    // Exactly what the single-envelope read gives, in DocuSign's shape.
    expect(tabbed.recipients).toEqual(answered.json);
    expect(swaggerErrors('EnvelopeRecipients', tabbed.recipients)).toEqual([]);

    const plain = (await completedMessage(recipientsOnly, envelopeId)).message.data.envelopeSummary;
    expect(plain.recipients.signers![0]).toMatchObject({ recipientId: '1', roleName: 'employee', status: 'completed' });
    expect(plain.recipients.signers![0]!.tabs).toBeUndefined();
    expect(plain.recipients.carbonCopies![0]).toMatchObject({ recipientId: '2', name: 'Acme HR' });
    expect(swaggerErrors('EnvelopeRecipients', plain.recipients)).toEqual([]);

    const { message, raw } = await completedMessage(neither, envelopeId);
    expect(Object.keys(message.data.envelopeSummary.recipients.signers![0]!).sort()).toEqual(
      ['email', 'name', 'recipientId', 'routingOrder', 'status'].sort(),
    );
    // No value typed by a signer travels where it was not asked for.
    expect(raw).not.toContain('Amy');
  });

  it("an envelope's own eventNotification asks the same way (its eventData)", async () => {
    const r = await receiver();
    const envelopeId = await sendWithTextTabs({
      eventNotification: {
        url: r.url,
        envelopeEvents: [{ envelopeEventStatusCode: 'completed' }],
        eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients', 'tabs'] },
      },
    });
    await signTyping(envelopeId, 'Bea');
    const { message } = await completedMessage(r, envelopeId);
    expect([message.apiVersion, message.uri.split('/')[2]]).toEqual(['v2.1', 'v2.1']);
    const summary = message.data.envelopeSummary;
    const text = new Map((summary.recipients.signers![0]!.tabs?.textTabs ?? []).map((t) => [t.tabLabel, t.value]));
    expect(text.get('Preferred name')).toBe('Bea');
  });
});
