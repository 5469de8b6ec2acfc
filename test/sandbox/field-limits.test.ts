import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// Issue 26: the sandbox enforces DocuSign's length limits
// (src/envelope/field-limits.ts) as DocuSign does: a subject, blurb,
// recipient name or email longer than DocuSign takes is refused with 400
// INVALID_REQUEST_PARAMETER; a document name longer than 100 characters is cut.

let sandbox: RunningSandbox;
let baseUrl: string;
let pdf: Buffer;
beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true });
  baseUrl = (await login(sandbox.rootUrl)).baseUrl;
  pdf = await makePdf(1);
});
afterAll(async () => sandbox?.close());

const create = (body: Record<string, unknown>) => call(`${baseUrl}/envelopes`, { headers: authHeader(), body });

describe("the sandbox and DocuSign's field limits", () => {
  it('refuses a subject, a blurb, a name or an email too long, naming the field', async () => {
    const base = documentEnvelope(pdf);
    const signers = (base['recipients'] as { signers: Array<Record<string, unknown>> }).signers;
    const withSigner = (change: Record<string, unknown>) => ({
      recipients: { signers: [{ ...signers[0], ...change }, signers[1]] },
    });
    for (const [overrides, field] of [
      [{ emailSubject: 'S'.repeat(101) }, 'emailSubject'],
      [{ emailBlurb: 'B'.repeat(10_001) }, 'emailBlurb'],
      [withSigner({ name: 'N'.repeat(101) }), 'name'],
      [withSigner({ email: `${'e'.repeat(95)}@example.com` }), 'email'],
    ] as const) {
      const r = await create(documentEnvelope(pdf, overrides));
      expectApiError(r, 400, 'INVALID_REQUEST_PARAMETER');
      expect(r.json.message).toContain(`${field} is`);
    }
  });

  it('takes every field at its limit, and cuts a longer document name at 100 characters', async () => {
    const r = await create(
      documentEnvelope(pdf, {
        emailSubject: 'S'.repeat(100),
        documents: [{ documentId: '1', name: `${'d'.repeat(120)}.pdf`, documentBase64: pdf.toString('base64') }],
      }),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const documents = await call(`${baseUrl}/envelopes/${r.json.envelopeId}/documents`, { headers: authHeader() });
    const names = (documents.json.envelopeDocuments as Array<{ documentId: string; name: string }>)
      .filter((d) => d.documentId === '1')
      .map((d) => d.name);
    expect(names).toEqual(['d'.repeat(100)]);
  });
});
