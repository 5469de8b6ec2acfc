import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { samplePdf, tempPdf, tool } from './pdf-tools.js';
import { sandboxApi, tabAt } from './sandbox-api.js';
import { openSigningLink, postForm } from './sign-over-http.js';
import { injectedSandbox } from '../sandbox/helpers/injected-sandbox.js';

// The approve and view tabs over HTTP (no browser): what the server checks
// whatever the page script did — approve only for a signer who has an approve
// tab, a required view opened first, and a signer whose tabs are approve or
// decline finishes without placing a signature.

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
const returnUrl = 'http://127.0.0.1:9/return';
const view = { email: 'ada@example.com', userName: 'Ada Approver', clientUserId: 'ada' };

beforeAll(async () => {
  sandbox = await injectedSandbox();
  api = sandboxApi(sandbox.rootUrl);
});
afterAll(async () => sandbox.close());

async function envelopeWith(tabs: Record<string, unknown>): Promise<string> {
  const pdf = Buffer.from(await samplePdf('Approve', 1)).toString('base64');
  return api.createEnvelope({
    emailSubject: 'Approve',
    status: 'sent',
    documents: [{ documentId: '1', name: 'policy.pdf', fileExtension: 'pdf', documentBase64: pdf }],
    recipients: { signers: [{ recipientId: '1', name: 'Ada Approver', email: view.email, clientUserId: 'ada', tabs }] },
  });
}

const eventOf = (res: Response) => new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('event');

describe('approve and view tabs over HTTP', () => {
  it('refuses approve for a signer with no approve tab', async () => {
    const envelopeId = await envelopeWith({ signHereTabs: [tabAt(400)] });
    const { sessionUrl, cookie, csrf } = await openSigningLink(await api.signingUrl(envelopeId, view, returnUrl));
    expect((await postForm(`${sessionUrl}/approve`, cookie, { csrfToken: csrf })).status).toBe(400);
    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'delivered' });
  });

  it('approves only once the required view was opened, and Finish waits for it too', async () => {
    const envelopeId = await envelopeWith({
      viewTabs: [tabAt(100, { tabLabel: 'Terms', required: 'true' })],
      approveTabs: [tabAt(200)],
      initialHereTabs: [tabAt(300)],
    });
    const { sessionUrl, cookie, csrf, html } = await openSigningLink(await api.signingUrl(envelopeId, view, returnUrl));
    const viewed = /name="(tab\.[^"]+)" value="" data-opened-value="viewed"/.exec(html)?.[1];
    expect(viewed).toBeDefined();
    for (const action of ['approve', 'sign']) {
      const refused = await postForm(`${sessionUrl}/${action}`, cookie, { csrfToken: csrf, signatureName: 'Ada' });
      expect(refused.status, action).toBe(400);
      expect(await refused.text()).toContain('Open these documents before finishing: Terms.');
    }
    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'delivered' });
    const approved = await postForm(`${sessionUrl}/approve`, cookie, { csrfToken: csrf, [viewed!]: 'viewed' });
    expect(approved.status).toBe(303);
    expect(eventOf(approved)).toBe('signing_complete');
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
    // Approving initials nothing: no initials box (its frame and date) is stamped, as no signature is.
    const text = (await tool('pdftotext', ['-layout', tempPdf(await api.document(envelopeId, '1')), '-'])).out;
    expect(text).toContain('Approve');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('a signer whose only tabs are approve and decline is not asked to place a signature', async () => {
    const envelopeId = await envelopeWith({ approveTabs: [tabAt(100)], declineTabs: [tabAt(200)] });
    const { sessionUrl, cookie, csrf, html } = await openSigningLink(await api.signingUrl(envelopeId, view, returnUrl));
    expect(html).not.toContain('No signature fields were set for you');
    expect(html).toContain('Fill in your fields, then select Approve (or Finish): you place no signature.');
    const finished = await postForm(`${sessionUrl}/sign`, cookie, { csrfToken: csrf, signatureName: 'Ada Approver' });
    expect(finished.status).toBe(303);
    expect(eventOf(finished)).toBe('signing_complete');
  });

  it('a signer with only a decline tab is told to finish, not to approve', async () => {
    const envelopeId = await envelopeWith({ declineTabs: [tabAt(100)] });
    const { html } = await openSigningLink(await api.signingUrl(envelopeId, view, returnUrl));
    expect(html).toContain('Fill in your fields, then select Finish: you place no signature.');
  });
});
