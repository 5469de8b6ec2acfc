import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { accessCodeAttempts } from '../../src/sandbox/signing/access-code.js';
import { swaggerErrors, type ApiVersion } from '../sandbox/helpers/swagger.js';
import { tempPdf, tool } from './pdf-tools.js';
import { sandboxApi } from './sandbox-api.js';
import { openSigningLink, postForm, signOverHttp } from './sign-over-http.js';
import { injectedSandbox, sandboxFetch } from '../sandbox/helpers/injected-sandbox.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';

// Issue 20, part 2: the sandbox routes every recipient kind as DocuSign does —
// routing orders across kinds, carbon copies and certified deliveries told at
// their turn, in-person signing through the host, witnesses after their
// signer, access codes before the documents — over HTTP through inject().

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
let pdfBase64: string;
const returnUrl = 'https://app.example/return';

beforeAll(async () => {
  sandbox = await injectedSandbox();
  api = sandboxApi(sandbox.rootUrl);
  // The anchors of DocuSign's published examples (eg002, eg039) are in the document's text.
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Agreement. Sign: **signature_1** and /sn1/ here.', { x: 72, y: 700, size: 12, font });
  pdfBase64 = Buffer.from(await doc.save()).toString('base64');
});
afterAll(async () => sandbox.close());

const documents = () => [{ documentId: '1', name: 'agreement.pdf', fileExtension: 'pdf', documentBase64: pdfBase64 }];
const signHere = (x: number) => ({
  signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: '400' }],
});

interface Message {
  to: string;
  kind: string;
  subject: string;
  body: string;
  links: string[];
  recipientId: string | null;
}

async function outboxFor(envelopeId: string): Promise<Message[]> {
  const res = await sandboxFetch(`${sandbox.origin}/sandbox/outbox?format=json&envelopeId=${envelopeId}`);
  return ((await res.json()) as { messages: Message[] }).messages;
}

type Recipients = Record<string, unknown> & { recipientCount: string; currentRoutingOrder: string };
type Listed = { recipientId: string; status: string } & Record<string, unknown>;

async function recipients(envelopeId: string, version: ApiVersion = 'v2'): Promise<Recipients> {
  const root = version === 'v2' ? sandbox.rootUrl : sandbox.rootUrl.replace('/restapi/v2', '/restapi/v2.1');
  const r = await sandboxApi(root).call<Recipients>('GET', `/envelopes/${envelopeId}/recipients`);
  expect(r.status).toBe(200);
  expect(swaggerErrors('EnvelopeRecipients', r.json, version)).toEqual([]);
  return r.json;
}

/** recipientId → status, across every collection. */
function statuses(listing: Recipients): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of Object.values(listing))
    if (Array.isArray(value)) for (const r of value as Listed[]) out[r.recipientId] = r.status;
  return out;
}

function view(envelopeId: string, body: Record<string, unknown>) {
  return api.call<{ url?: string; errorCode?: string }>('POST', `/envelopes/${envelopeId}/views/recipient`, {
    returnUrl,
    authenticationMethod: 'none',
    ...body,
  });
}

async function certificateText(envelopeId: string): Promise<string> {
  const text = (await tool('pdftotext', [tempPdf(await api.document(envelopeId, 'certificate')), '-'])).out;
  return text.replace(/\s+/g, ' ');
}

/** Opens a link and presses the page's Finish button of a recipient who does not sign; the redirect's event. */
async function actOverHttp(url: string): Promise<string | null> {
  const { sessionUrl, cookie, csrf, html } = await openSigningLink(url);
  expect(html).toContain('id="act-form"');
  const res = await postForm(`${sessionUrl}/act`, cookie, { csrfToken: csrf });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('event');
}

describe('every recipient kind, routed as DocuSign does', () => {
  it('signer and in-person signer (1), witness and certified delivery (2), carbon copy (3): completed in order', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Lease',
      emailBlurb: 'Please sign the lease.',
      status: 'sent',
      documents: documents(),
      recipients: {
        signers: [
          {
            recipientId: '1',
            name: 'Sam Signer',
            email: 'sam@example.com',
            clientUserId: 'c-1',
            routingOrder: '1',
            tabs: signHere(72),
          },
        ],
        inPersonSigners: [
          {
            recipientId: '2',
            hostName: 'Hilda Host',
            hostEmail: 'hilda@example.com',
            signerName: 'Ivan Inperson',
            clientUserId: 'c-2',
            routingOrder: '1',
            tabs: signHere(200),
          },
        ],
        witnesses: [
          {
            recipientId: '3',
            name: 'Wendy Witness',
            email: 'wendy@example.com',
            witnessFor: '1',
            clientUserId: 'c-3',
            routingOrder: '2',
            tabs: signHere(330),
          },
        ],
        certifiedDeliveries: [
          { recipientId: '4', name: 'Carl Certified', email: 'carl@example.com', routingOrder: '2' },
        ],
        carbonCopies: [{ recipientId: '5', name: 'Cora Copy', email: 'cora@example.com', routingOrder: '3' }],
      },
    });

    // Order 1: the two embedded signers are sent; nobody gets mail (embedded recipients get none).
    let listing = await recipients(envelopeId);
    expect(statuses(listing)).toEqual({ '1': 'sent', '2': 'sent', '3': 'created', '4': 'created', '5': 'created' });
    expect(listing.recipientCount).toBe('5');
    expect(listing.currentRoutingOrder).toBe('1');
    const [inPerson] = listing['inPersonSigners'] as Listed[];
    expect(inPerson).toMatchObject({
      hostName: 'Hilda Host',
      hostEmail: 'hilda@example.com',
      signerName: 'Ivan Inperson',
      name: 'Hilda Host',
      email: 'hilda@example.com',
      recipientType: 'inPersonSigner',
    });
    expect((listing['witnesses'] as Listed[])[0]).toMatchObject({ witnessFor: '1', recipientType: 'witness' });
    expect(await recipients(envelopeId, 'v2.1')).toEqual(listing);
    expect(await outboxFor(envelopeId)).toEqual([]);

    // The witness's turn has not come.
    const early = await view(envelopeId, {
      userName: 'Wendy Witness',
      email: 'wendy@example.com',
      clientUserId: 'c-3',
      recipientId: '3',
    });
    expect(early.status).toBe(400);
    expect(early.json.errorCode).toBe('RECIPIENT_NOT_IN_SEQUENCE');

    // In-person: the host asks for the view with its own name and email; the page hands over to the signer.
    const hosted = await view(envelopeId, {
      userName: 'Hilda Host',
      email: 'hilda@example.com',
      clientUserId: 'c-2',
      recipientId: '2',
    });
    expect(hosted.status).toBe(201);
    const opened = await openSigningLink(hosted.json.url!);
    expect(opened.html).toContain('Hilda Host, hand this device to Ivan Inperson');
    expect(opened.html).toMatch(/id="signature-name"[^>]*value="Ivan Inperson"/);
    const signed = await postForm(`${opened.sessionUrl}/sign`, opened.cookie, {
      signatureName: 'Ivan Inperson',
      csrfToken: opened.csrf,
    });
    expect(new URL(signed.headers.get('location')!).searchParams.get('event')).toBe('signing_complete');
    expect(await outboxFor(envelopeId)).toEqual([]);

    const samUrl = await api.signingUrl(
      envelopeId,
      { email: 'sam@example.com', userName: 'Sam Signer', clientUserId: 'c-1' },
      returnUrl,
    );
    expect(await signOverHttp(samUrl, 'Sam Signer')).toBe('signing_complete');

    // Order 2: the witness and the certified delivery; only the remote one gets a message.
    listing = await recipients(envelopeId);
    expect(statuses(listing)).toEqual({ '1': 'completed', '2': 'completed', '3': 'sent', '4': 'sent', '5': 'created' });
    expect(listing.currentRoutingOrder).toBe('2');
    let messages = await outboxFor(envelopeId);
    expect(messages.map((m) => [m.to, m.kind])).toEqual([['carl@example.com', 'envelope-notification']]);

    const witnessView = await view(envelopeId, {
      userName: 'Wendy Witness',
      email: 'wendy@example.com',
      clientUserId: 'c-3',
      recipientId: '3',
    });
    expect(witnessView.status).toBe(201);
    const witnessPage = await openSigningLink(witnessView.json.url!);
    expect(witnessPage.html).toContain('witness of Sam Signer');
    expect(
      (
        await postForm(`${witnessPage.sessionUrl}/sign`, witnessPage.cookie, {
          signatureName: 'Wendy Witness',
          csrfToken: witnessPage.csrf,
        })
      ).status,
    ).toBe(303);
    expect(await api.envelopeStatus(envelopeId)).not.toBe('completed');

    // The certified delivery opens its link, sees the documents and finishes: the envelope completes.
    const carlLink = messages[0]!.links.find((l) => l.startsWith(`${sandbox.origin}/signing/`))!;
    expect(await actOverHttp(carlLink)).toBe('viewing_complete');
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');

    // Order 3 came and passed at once: the carbon copy got its message, then the completed documents.
    messages = await outboxFor(envelopeId);
    expect(messages.map((m) => [m.to, m.kind])).toEqual([
      ['carl@example.com', 'envelope-notification'],
      ['cora@example.com', 'envelope-notification'],
      ['cora@example.com', 'envelope-completed'],
    ]);
    expect(messages[2]!.subject).toBe('Completed: Lease');
    listing = await recipients(envelopeId);
    expect(statuses(listing)).toEqual({
      '1': 'completed',
      '2': 'completed',
      '3': 'completed',
      '4': 'completed',
      '5': 'completed',
    });

    // The carbon copy reads the completed documents, with nothing to do.
    const copy = await openSigningLink(messages[2]!.links[0]!);
    expect(copy.html).toContain('nothing for you to do');
    expect(copy.html).not.toContain('id="act-form"');
    expect((await sandboxFetch(`${copy.sessionUrl}/documents/1`, { headers: { cookie: copy.cookie } })).status).toBe(
      200,
    );

    const certificate = await certificateText(envelopeId);
    for (const line of [
      'Sam Signer <sam@example.com> — recipient 1, Signer, routing order 1',
      'Ivan Inperson — recipient 2, In person signer, hosted by Hilda Host <hilda@example.com>',
      'Wendy Witness <wendy@example.com> — recipient 3, Witness for Sam Signer (recipient 1)',
      'Carl Certified <carl@example.com> — recipient 4, Certified delivery',
      'Cora Copy <cora@example.com> — recipient 5, Carbon copy, routing order 3, completed',
    ])
      expect(certificate).toContain(line);
  });

  it('a witness in the same routing order as its signer waits for the signature', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Deed',
      status: 'sent',
      documents: documents(),
      recipients: {
        signers: [
          { recipientId: '1', name: 'Dora Deed', email: 'dora@example.com', clientUserId: 'd-1', tabs: signHere(72) },
        ],
        witnesses: [
          {
            recipientId: '2',
            name: 'Walt Witness',
            email: 'walt@example.com',
            witnessFor: '1',
            clientUserId: 'd-2',
            tabs: signHere(300),
          },
        ],
      },
    });
    expect(statuses(await recipients(envelopeId))).toEqual({ '1': 'sent', '2': 'sent' });
    const walt = { userName: 'Walt Witness', email: 'walt@example.com', clientUserId: 'd-2' };
    const refused = await view(envelopeId, walt);
    expect(refused.json.errorCode).toBe('RECIPIENT_NOT_IN_SEQUENCE');
    const url = await api.signingUrl(
      envelopeId,
      { userName: 'Dora Deed', email: 'dora@example.com', clientUserId: 'd-1' },
      returnUrl,
    );
    expect(await signOverHttp(url, 'Dora Deed')).toBe('signing_complete');
    const allowed = await view(envelopeId, walt);
    expect(allowed.status).toBe(201);
    expect(await signOverHttp(allowed.json.url!, 'Walt Witness')).toBe('signing_complete');
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
  });

  it('refuses a witness for a recipient who is not in the envelope: 400 INVALID_RECIPIENT_ID', async () => {
    const r = await api.call<{ errorCode: string; message: string }>('POST', '/envelopes', {
      emailSubject: 'Nobody',
      status: 'sent',
      documents: documents(),
      recipients: {
        signers: [{ recipientId: '1', name: 'Sole Signer', email: 'sole@example.com' }],
        witnesses: [{ recipientId: '2', name: 'Lost Witness', email: 'lost@example.com', witnessFor: '9' }],
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.errorCode).toBe('INVALID_RECIPIENT_ID');
    expect(r.json.message).toContain('witnessFor 9');
  });

  it('refuses witnesses who witness each other (a cycle that would wait for ever): 400 INVALID_RECIPIENT_ID, as validate refuses it', async () => {
    const r = await api.call<{ errorCode: string; message: string }>('POST', '/envelopes', {
      emailSubject: 'Circle',
      status: 'sent',
      documents: documents(),
      recipients: {
        signers: [{ recipientId: '1', name: 'Sole Signer', email: 'sole@example.com' }],
        witnesses: [
          { recipientId: '2', name: 'Wanda Two', email: 'w2@example.com', witnessFor: '3', routingOrder: '2' },
          { recipientId: '3', name: 'Wim Three', email: 'w3@example.com', witnessFor: '2', routingOrder: '2' },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.errorCode).toBe('INVALID_RECIPIENT_ID');
    expect(r.json.message).toContain('witnessFor 3');
  });

  it('editors, agents and intermediaries finish their part with a button, and the routing goes on', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Chain',
      status: 'sent',
      documents: documents(),
      recipients: {
        editors: [{ recipientId: '1', name: 'Ed Editor', email: 'ed@example.com', routingOrder: '1' }],
        agents: [{ recipientId: '2', name: 'Alice Agent', email: 'alice@example.com', routingOrder: '2' }],
        intermediaries: [{ recipientId: '3', name: 'Ian Inter', email: 'ian@example.com', routingOrder: '3' }],
        signers: [
          { recipientId: '4', name: 'Last Signer', email: 'last@example.com', routingOrder: '4', tabs: signHere(72) },
        ],
      },
    });
    for (const [i, to] of ['ed@example.com', 'alice@example.com', 'ian@example.com'].entries()) {
      const message = (await outboxFor(envelopeId))[i]!;
      expect(message.to).toBe(to);
      expect(await actOverHttp(message.links[0]!)).toBe('signing_complete');
    }
    const last = (await outboxFor(envelopeId))[3]!;
    expect(last.to).toBe('last@example.com');
    expect(await signOverHttp(last.links[0]!, 'Last Signer')).toBe('signing_complete');
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
  });
});

describe('access codes', () => {
  /** DocuSign's published request body (code-examples-bash eg019), unchanged but for the document and the recipient. */
  const eg019 = (accessCode: string, email: string) => ({
    documents: documents(),
    emailBlurb: 'Sample text for email body',
    emailSubject: 'Please Sign',
    envelopeIdStamping: 'true',
    recipients: {
      signers: [
        {
          name: 'Coded Signer',
          email,
          roleName: '',
          note: '',
          routingOrder: 1,
          status: 'created',
          tabs: {
            signHereTabs: [
              {
                documentId: '1',
                name: 'SignHereTab',
                pageNumber: '1',
                recipientId: '1',
                tabLabel: 'SignHereTab',
                xPosition: '200',
                yPosition: '160',
              },
            ],
          },
          templateAccessCodeRequired: null,
          deliveryMethod: 'email',
          recipientId: '1',
          accessCode,
          smsAuthentication: null,
          idCheckConfigurationName: '',
          requireIdLookup: false,
        },
      ],
    },
    status: 'Sent',
  });

  async function answersOf(envelopeId: string): Promise<string> {
    const parts = [
      JSON.stringify((await api.call('GET', `/envelopes/${envelopeId}/recipients`)).json),
      JSON.stringify((await api.call('GET', `/envelopes/${envelopeId}?include=recipients`)).json),
      JSON.stringify((await api.call('GET', `/envelopes?from_date=2000-01-01&include=recipients`)).json),
      JSON.stringify(await outboxFor(envelopeId)),
      await (await sandboxFetch(`${sandbox.origin}/sandbox/outbox`)).text(),
    ];
    return parts.join('\n');
  }

  it('shows no document before the code, refuses a wrong one and locks the recipient after the limit', async () => {
    const code = 'nj91@c-locked';
    const envelopeId = await api.createEnvelope(eg019(code, 'coded.locked@example.com'));
    const link = (await outboxFor(envelopeId))[0]!.links[0]!;
    const page = await openSigningLink(link);
    expect(page.html).toContain('id="access-code"');
    expect(page.html).not.toContain('agreement.pdf');
    expect((await sandboxFetch(`${page.sessionUrl}/documents/1`, { headers: { cookie: page.cookie } })).status).toBe(
      403,
    );
    // Not delivered: the documents have not shown.
    expect(statuses(await recipients(envelopeId))).toEqual({ '1': 'sent' });
    const signed = await postForm(`${page.sessionUrl}/sign`, page.cookie, { signatureName: 'X', csrfToken: page.csrf });
    expect(signed.status).toBe(403);

    for (let attempt = 1; attempt < accessCodeAttempts; attempt++) {
      const wrong = await postForm(`${page.sessionUrl}/access-code`, page.cookie, {
        accessCode: `wrong-${attempt}`,
        csrfToken: page.csrf,
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain(`${accessCodeAttempts - attempt} attempt`);
    }
    const last = await postForm(`${page.sessionUrl}/access-code`, page.cookie, {
      accessCode: 'wrong',
      csrfToken: page.csrf,
    });
    expect(last.status).toBe(403);
    expect(await last.text()).toContain('too many wrong access codes');
    // Locked: the right code opens nothing any more, in this session or a new one.
    const late = await postForm(`${page.sessionUrl}/access-code`, page.cookie, {
      accessCode: code,
      csrfToken: page.csrf,
    });
    expect(late.status).toBe(403);
    expect((await sandboxFetch(`${page.sessionUrl}/documents/1`, { headers: { cookie: page.cookie } })).status).toBe(
      403,
    );
    expect(await api.envelopeStatus(envelopeId)).toBe('sent');
    expect(await answersOf(envelopeId)).not.toContain(code);
  });

  it('opens the documents with the right code; the code appears in no answer, message or certificate', async () => {
    const code = 'nj91@c';
    const envelopeId = await api.createEnvelope(eg019(code, 'coded@example.com'));
    const page = await openSigningLink((await outboxFor(envelopeId))[0]!.links[0]!);
    const wrong = await postForm(`${page.sessionUrl}/access-code`, page.cookie, {
      accessCode: 'nope',
      csrfToken: page.csrf,
    });
    expect(wrong.status).toBe(400);
    const right = await postForm(`${page.sessionUrl}/access-code`, page.cookie, {
      accessCode: code,
      csrfToken: page.csrf,
    });
    expect(right.status).toBe(303);
    const shown = await sandboxFetch(page.sessionUrl, { headers: { cookie: page.cookie } });
    expect(await shown.text()).toContain('id="sign-form"');
    expect(statuses(await recipients(envelopeId))).toEqual({ '1': 'delivered' });
    expect((await sandboxFetch(`${page.sessionUrl}/documents/1`, { headers: { cookie: page.cookie } })).status).toBe(
      200,
    );
    const signed = await postForm(`${page.sessionUrl}/sign`, page.cookie, {
      signatureName: 'Coded Signer',
      csrfToken: page.csrf,
    });
    expect(signed.status).toBe(303);
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    expect(await answersOf(envelopeId)).not.toContain(code);
    expect(await certificateText(envelopeId)).not.toContain(code);
    const row = sandbox.app.sandbox.db
      .prepare("SELECT * FROM recipients WHERE envelope_id = ? AND recipient_id = '1'")
      .get(envelopeId) as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(code);
  });
});

describe("DocuSign's published request bodies, accepted unchanged", () => {
  it('eg039: an in-person signer with no name or email, hosted by the calling user, and its view request', async () => {
    const hostEmail = 'sandbox@signrun.test';
    const hostName = 'Sandbox User';
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Please host this in-person signing session',
      documents: [{ documentBase64: pdfBase64, name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '1' }],
      recipients: {
        inPersonSigners: [
          {
            hostEmail,
            hostName,
            signerName: 'Paula Person',
            recipientId: '1',
            routingOrder: '1',
            tabs: {
              signHereTabs: [
                { anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' },
              ],
            },
          },
        ],
      },
      status: 'sent',
    });
    const r = await api.call<{ url: string }>('POST', `/envelopes/${envelopeId}/views/recipient`, {
      returnUrl: 'http://httpbin.org/get',
      authenticationMethod: 'none',
      email: hostEmail,
      userName: hostName,
    });
    expect(r.status).toBe(201);
    const page = await openSigningLink(r.json.url);
    expect(page.html).toContain(`${hostName}, hand this device to Paula Person`);
    const done = await postForm(`${page.sessionUrl}/sign`, page.cookie, {
      signatureName: 'Paula Person',
      csrfToken: page.csrf,
    });
    expect(done.status).toBe(303);
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    // Someone else is not the host.
    const other = await api.createEnvelope({
      emailSubject: 'Foreign host',
      documents: documents(),
      recipients: {
        inPersonSigners: [{ hostEmail: 'else@example.com', hostName: 'Else', signerName: 'P', recipientId: '1' }],
      },
      status: 'sent',
    });
    const refused = await view(other, { email: 'else@example.com', userName: 'Else' });
    expect(refused.json.errorCode).toBe('UNKNOWN_ENVELOPE_RECIPIENT');
  });

  it('eg002: a signer with anchored tabs and a carbon copy in routing order 2', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Please sign this document set',
      documents: [{ documentBase64: pdfBase64, name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '3' }],
      recipients: {
        carbonCopies: [{ email: 'cc@example.com', name: 'CC Person', recipientId: '2', routingOrder: '2' }],
        signers: [
          {
            email: 'signer@example.com',
            name: 'Signer Person',
            recipientId: '1',
            routingOrder: '1',
            tabs: {
              signHereTabs: [
                { anchorString: '**signature_1**', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' },
                { anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' },
              ],
            },
          },
        ],
      },
      status: 'sent',
    });
    expect((await outboxFor(envelopeId)).map((m) => m.to)).toEqual(['signer@example.com']);
    expect(await signOverHttp((await outboxFor(envelopeId))[0]!.links[0]!, 'Signer Person')).toBe('signing_complete');
    expect((await outboxFor(envelopeId)).map((m) => [m.to, m.kind])).toEqual([
      ['signer@example.com', 'envelope-notification'],
      ['cc@example.com', 'envelope-notification'],
      ['cc@example.com', 'envelope-completed'],
    ]);
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
  });

  it('a signer with a witness and their view request as DocuSign users send them (docusign-esign-csharp-client#286)', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Witnessed',
      status: 'sent',
      documents: documents(),
      recipients: {
        signers: [
          {
            name: 'e',
            email: 'e@e.com',
            recipientId: '1001',
            clientUserId: '1001',
            routingOrder: '1',
            roleName: 'Signer',
            tabs: signHere(72),
          },
        ],
        witnesses: [
          {
            name: 'w2',
            email: 'w2@e.com',
            recipientId: '1003',
            clientUserId: '1003',
            routingOrder: '1',
            witnessFor: '1001',
            tabs: signHere(300),
          },
        ],
      },
    });
    const signerUrl = await api.signingUrl(
      envelopeId,
      { email: 'e@e.com', userName: 'e', clientUserId: '1001' },
      returnUrl,
    );
    expect(await signOverHttp(signerUrl, 'e')).toBe('signing_complete');
    const r = await api.call<{ url: string }>('POST', `/envelopes/${envelopeId}/views/recipient`, {
      authenticationMethod: 'Email',
      clientUserId: '1003',
      recipientId: '1003',
      email: 'w2@e.com',
      userName: 'w2',
      returnUrl,
    });
    expect(r.status).toBe(201);
    expect(await signOverHttp(r.json.url, 'w2')).toBe('signing_complete');
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
  });
});
