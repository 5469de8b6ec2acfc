import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { samplePdf, tempPdf, tool } from './pdf-tools.js';
import { sandboxApi, signer } from './sandbox-api.js';
import { openSigningLink, postForm } from './sign-over-http.js';
import { injectedSandbox, sandboxFetch } from '../sandbox/helpers/injected-sandbox.js';

// The signing page over HTTP through inject() without a browser: the security rules
// (single-use token, session cookie, CSRF token, headers) and the redirects.

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
const returnUrl = 'http://127.0.0.1:9/return?state=abc';

beforeAll(async () => {
  sandbox = await injectedSandbox();
  api = sandboxApi(sandbox.rootUrl);
});
afterAll(async () => sandbox.close());

async function oneSignerEnvelope(extra: Record<string, unknown> = {}): Promise<string> {
  const pdf = Buffer.from(await samplePdf('HTTP test', 1)).toString('base64');
  return api.createEnvelope({
    emailSubject: 'HTTP test',
    status: 'sent',
    documents: [{ documentId: '1', name: 'test.pdf', fileExtension: 'pdf', documentBase64: pdf }],
    recipients: {
      signers: [
        signer(
          '1',
          'Alice Martin',
          '1',
          [{ documentId: '1', pageNumber: '1', xPosition: '72', yPosition: '400' }],
          extra,
        ),
      ],
    },
  });
}

async function open(url: string) {
  const opened = await openSigningLink(url);
  expect(opened.csrf).not.toBe('');
  return opened;
}

const post = postForm;

describe('signing page over HTTP', () => {
  it('spends the token on first open; a second open explains and sends back with ttl_expired', async () => {
    const envelopeId = await oneSignerEnvelope();
    const url = await api.signingUrl(
      envelopeId,
      { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
      returnUrl,
    );
    const { html, sessionUrl } = await open(url);
    expect(html).toContain('Alice Martin');
    expect(await api.envelopeStatus(envelopeId)).toBe('delivered');

    const again = await sandboxFetch(url, { redirect: 'manual' });
    expect(again.status).toBe(410);
    const page = await again.text();
    const refresh = /http-equiv="refresh" content="3;url=([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&');
    expect(refresh).toBeDefined();
    const target = new URL(refresh!);
    expect(target.searchParams.get('event')).toBe('ttl_expired');
    expect(target.searchParams.get('state')).toBe('abc');

    // The session page without the cookie: refused.
    expect((await sandboxFetch(sessionUrl)).status).toBe(403);
  });

  it('sends security headers: frame-ancestors self, no referrer, no inline script', async () => {
    const envelopeId = await oneSignerEnvelope();
    const url = await api.signingUrl(
      envelopeId,
      { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
      returnUrl,
    );
    const first = await sandboxFetch(url, { redirect: 'manual' });
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/);
    const page = await sandboxFetch(new URL(first.headers.get('location')!, url), {
      headers: { cookie: (first.headers.get('set-cookie') ?? '').split(';')[0]! },
    });
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('refuses a POST without the CSRF token or from another origin, then signs with it', async () => {
    const envelopeId = await oneSignerEnvelope();
    const url = await api.signingUrl(
      envelopeId,
      { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
      returnUrl,
    );
    const { sessionUrl, cookie, csrf } = await open(url);
    expect(csrf).not.toBe('');

    expect((await post(`${sessionUrl}/sign`, cookie, { signatureName: 'Alice Martin' })).status).toBe(403);
    expect(
      (await post(`${sessionUrl}/sign`, cookie, { signatureName: 'Alice Martin', csrfToken: 'forged' })).status,
    ).toBe(403);
    expect(
      (
        await post(
          `${sessionUrl}/sign`,
          cookie,
          { signatureName: 'Alice Martin', csrfToken: csrf },
          { origin: 'http://evil.example' },
        )
      ).status,
    ).toBe(403);
    expect((await post(`${sessionUrl}/sign`, '', { signatureName: 'Alice Martin', csrfToken: csrf })).status).toBe(403);
    expect(await api.envelopeStatus(envelopeId)).toBe('delivered');

    // An empty signature is refused with the page again (400), nothing changes.
    expect((await post(`${sessionUrl}/sign`, cookie, { signatureName: '  ', csrfToken: csrf })).status).toBe(400);

    const done = await post(`${sessionUrl}/sign`, cookie, { signatureName: 'Alice Martin', csrfToken: csrf });
    expect(done.status).toBe(303);
    const target = new URL(done.headers.get('location')!);
    expect(target.searchParams.get('event')).toBe('signing_complete');
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');

    const path = tempPdf(await api.document(envelopeId, '1'));
    expect((await tool('pdftotext', [path, '-'])).out).toContain('Alice Martin');
    expect((await tool('pdfsig', [path])).out).toMatch(/Signature Validation: Signature is Valid\./);

    // The session is over: a replayed POST changes nothing.
    expect((await post(`${sessionUrl}/sign`, cookie, { signatureName: 'Alice Martin', csrfToken: csrf })).status).toBe(
      410,
    );
  });

  it('finish later returns with event=cancel and changes nothing; a decline needs a reason', async () => {
    const envelopeId = await oneSignerEnvelope();
    const view = { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' };
    const first = await open(await api.signingUrl(envelopeId, view, returnUrl));
    const later = await post(`${first.sessionUrl}/cancel`, first.cookie, { csrfToken: first.csrf });
    expect(later.status).toBe(303);
    expect(new URL(later.headers.get('location')!).searchParams.get('event')).toBe('cancel');
    expect(await api.recipientStatuses(envelopeId)).toEqual({ '1': 'delivered' });

    const second = await open(await api.signingUrl(envelopeId, view, returnUrl));
    const parallel = await open(await api.signingUrl(envelopeId, view, returnUrl));
    expect(
      (await post(`${second.sessionUrl}/decline`, second.cookie, { csrfToken: second.csrf, reason: ' ' })).status,
    ).toBe(400);
    expect(await api.envelopeStatus(envelopeId)).toBe('delivered');
    const declined = await post(`${second.sessionUrl}/decline`, second.cookie, {
      csrfToken: second.csrf,
      reason: 'Wrong address',
    });
    expect(new URL(declined.headers.get('location')!).searchParams.get('event')).toBe('decline');
    expect(await api.envelopeStatus(envelopeId)).toBe('declined');

    // A finished session opens nothing; one opened before the decline cannot sign.
    expect(
      (await post(`${first.sessionUrl}/sign`, first.cookie, { csrfToken: first.csrf, signatureName: 'A' })).status,
    ).toBe(410);
    const stale = await post(`${parallel.sessionUrl}/sign`, parallel.cookie, {
      csrfToken: parallel.csrf,
      signatureName: 'A',
    });
    expect(stale.status).toBe(409);
    expect(await api.envelopeStatus(envelopeId)).toBe('declined');
  });

  it('refuses free placements that are missing or point outside the documents, then accepts a valid one', async () => {
    const pdf = Buffer.from(await samplePdf('free', 1)).toString('base64');
    const envelopeId = await api.createEnvelope({
      emailSubject: 'Free',
      status: 'sent',
      documents: [{ documentId: '1', name: 'free.pdf', fileExtension: 'pdf', documentBase64: pdf }],
      recipients: { signers: [signer('1', 'Alice Martin', '1', [])] },
    });
    const view = { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' };
    const { sessionUrl, cookie, csrf } = await open(await api.signingUrl(envelopeId, view, returnUrl));
    const sign = (placements: string) =>
      post(`${sessionUrl}/sign`, cookie, { csrfToken: csrf, signatureName: 'Alice Martin', placements });
    for (const bad of [
      '',
      '[]',
      'not json',
      '[{"documentId":"9","pageNumber":1,"xPosition":10,"yPosition":10}]',
      '[{"documentId":"1","pageNumber":0,"xPosition":10,"yPosition":10}]',
      '[{"documentId":"1","pageNumber":1,"xPosition":-5,"yPosition":10}]',
      '[{"documentId":"1","pageNumber":2,"xPosition":10,"yPosition":10}]',
    ]) {
      expect((await sign(bad)).status, bad).toBe(400);
    }
    expect(await api.envelopeStatus(envelopeId)).toBe('delivered');
    const ok = await sign('[{"documentId":"1","pageNumber":1,"xPosition":100,"yPosition":200}]');
    expect(ok.status).toBe(303);
    expect(await api.envelopeStatus(envelopeId)).toBe('completed');
  });

  it('renders the page in French for supportedLanguage fr', async () => {
    const envelopeId = await oneSignerEnvelope({ supportedLanguage: 'fr' });
    const url = await api.signingUrl(
      envelopeId,
      { email: 'alice.martin@example.com', userName: 'Alice Martin', clientUserId: 'client-1' },
      returnUrl,
    );
    const { html } = await open(url);
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Terminer');
    expect(html).toContain('Refuser de signer');
  });

  it('answers an unknown token with 404 and no redirect', async () => {
    const res = await sandboxFetch(`${sandbox.origin}/signing/not-a-real-token`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('http-equiv="refresh"');
  });

  it('creates the sealing CA at the first start with a data folder and keeps it across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signrun-ca-start-'));
    const root = join(dataDir, 'ca', 'sandbox-root-ca.pem');
    const first = await injectedSandbox({ dataDir });
    expect(existsSync(root)).toBe(true);
    const pem = readFileSync(root, 'utf8');
    await first.close();
    const second = await injectedSandbox({ dataDir });
    await second.close();
    expect(readFileSync(root, 'utf8')).toBe(pem);
  });

  it('serves pdf.js and the page assets', async () => {
    for (const name of ['pdf.min.mjs', 'pdf.worker.min.mjs', 'signing.js', 'signing.css']) {
      const res = await sandboxFetch(`${sandbox.origin}/signing/assets/${name}`);
      expect(res.status, name).toBe(200);
    }
    expect((await sandboxFetch(`${sandbox.origin}/signing/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await sandboxFetch(`${sandbox.origin}/signing/assets/standard_fonts/..%2Fpackage.json`)).status).toBe(404);
  });
});
