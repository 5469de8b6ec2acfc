import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp, startSandbox } from '../../src/sandbox/index.js';
import { samplePdf, tempPdf, tool } from './pdf-tools.js';
import { sandboxApi } from './sandbox-api.js';
import { signOverHttp } from './sign-over-http.js';

// Issue item 5: remote signers (no clientUserId) find their own signing link
// in the outbox, so a whole remote flow runs in the sandbox.

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let api: ReturnType<typeof sandboxApi>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  api = sandboxApi(sandbox.rootUrl);
});
afterAll(async () => sandbox.close());

interface Message {
  to: string;
  kind: string;
  links: string[];
}

async function outboxFor(envelopeId: string): Promise<Message[]> {
  const res = await fetch(`${sandbox.origin}/sandbox/outbox?format=json&envelopeId=${envelopeId}`);
  return ((await res.json()) as { messages: Message[] }).messages;
}

describe('remote signers', () => {
  it('each gets a notification with a signing link when their routing order comes, and can sign with it', async () => {
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Remote contract',
      status: 'sent',
      documents: [
        {
          documentId: '1',
          name: 'r.pdf',
          fileExtension: 'pdf',
          documentBase64: Buffer.from(await samplePdf('remote', 1)).toString('base64'),
        },
      ],
      recipients: {
        signers: [
          {
            recipientId: '1',
            name: 'Remote One',
            email: 'one@example.com',
            routingOrder: '1',
            tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '300' }] },
          },
          {
            recipientId: '2',
            name: 'Remote Two',
            email: 'two@example.com',
            routingOrder: '2',
            tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '300' }] },
          },
        ],
      },
    });
    let messages = await outboxFor(envelopeId);
    expect(messages.map((m) => m.to)).toEqual(['one@example.com']);
    const first = messages[0]!.links.find((l) => l.startsWith(`${sandbox.origin}/signing/`));
    expect(first).toBeDefined();
    expect(await signOverHttp(first!, 'Remote One')).toBe('signing_complete');

    messages = await outboxFor(envelopeId);
    expect(messages.map((m) => m.to)).toEqual(['one@example.com', 'two@example.com']);
    const second = messages[1]!.links.find((l) => l.startsWith(`${sandbox.origin}/signing/`));
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await signOverHttp(second!, 'Remote Two')).toBe('signing_complete');

    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    const done = await fetch(`${sandbox.origin}/signing/done?event=signing_complete`);
    expect(done.status).toBe(200);
    const donePage = await done.text();
    expect(donePage).toContain('Thank you');
    // Words a signer understands: what happened, what to do now.
    expect(donePage).toContain('You have finished: the sender has been notified. You can close this window.');
    const declined = await (await fetch(`${sandbox.origin}/signing/done?event=decline`)).text();
    expect(declined).toContain('The sender has been notified and will see your reason. You can close this window.');
    const text = (await tool('pdftotext', [tempPdf(await api.document(envelopeId, '1')), '-'])).out;
    expect(text).toContain('Remote One');
    expect(text).toContain('Remote Two');
  });
});

describe('remote signers when the sandbox has no fixed origin (wildcard host)', () => {
  it('get a link with the port the sandbox listens on', async () => {
    // buildSandboxApp + listen leaves config.origin unset, as startSandbox does
    // on 0.0.0.0 — without exposing a test server beyond loopback.
    const app = await buildSandboxApp({});
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      expect(app.sandbox.config.origin).toBeUndefined();
      const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const envelopeId = await sandboxApi(`${origin}/restapi/v2`).createEnvelope({
        emailSubject: 'Wildcard',
        status: 'sent',
        documents: [
          {
            documentId: '1',
            name: 'w.pdf',
            fileExtension: 'pdf',
            documentBase64: Buffer.from(await samplePdf('w', 1)).toString('base64'),
          },
        ],
        recipients: {
          signers: [{ recipientId: '1', name: 'Remote Wild', email: 'wild@example.com', routingOrder: '1' }],
        },
      });
      const res = await fetch(`${origin}/sandbox/outbox?format=json&envelopeId=${envelopeId}`);
      const link = ((await res.json()) as { messages: Message[] }).messages[0]?.links[0];
      expect(link?.startsWith(`${origin}/signing/`)).toBe(true);
      expect((await fetch(link!, { redirect: 'manual' })).status).toBe(303);
    } finally {
      await app.close();
    }
  });
});
