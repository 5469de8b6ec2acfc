import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp } from '../../src/sandbox/index.js';
import { docxOfBody, paragraphOfRuns } from '../helpers/docx-of-body.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { authHeader } from './helpers/api.js';

// Issue 39, the sandbox: a DOCX sent with isDocGenDocument and its
// docGenFormFields is kept as the letter generated from them; a field left
// without a value, or one the DOCX lacks, is refused, as DocuSign refuses
// to send such an envelope.

const accountPath = '/restapi/v2.1/accounts/5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11';
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildSandboxApp();
});
afterAll(async () => app.close());

// "{{Salary}}" split across runs, as Word writes it.
const letter = docxOfBody(
  paragraphOfRuns('Dear {{Candidate_Name}},') +
    paragraphOfRuns('Your salary is {{Sal', 'ary}}.') +
    paragraphOfRuns('Sign here:'),
);

function envelope(fields: Array<Record<string, unknown>> | undefined): Record<string, unknown> {
  return {
    emailSubject: 'Your offer',
    status: 'sent',
    documents: [
      {
        documentId: '1',
        name: 'offer.docx',
        fileExtension: 'docx',
        documentBase64: letter.toString('base64'),
        isDocGenDocument: 'true',
        ...(fields ? { docGenFormFields: fields } : {}),
      },
    ],
    recipients: {
      signers: [
        {
          recipientId: '1',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          tabs: { signHereTabs: [{ anchorString: 'Sign here:', anchorXOffset: '80' }] },
        },
      ],
    },
  };
}

const post = (body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `${accountPath}/envelopes`, headers: authHeader(), payload: body });

describe('Document Generation in the sandbox', () => {
  it('keeps the letter generated from the values given at creation, and serves it', async () => {
    const created = await post(
      envelope([
        { name: 'Candidate_Name', value: 'Ada Lovelace' },
        { name: 'Salary', value: '62000', type: 'Number', format: { expression: '#,##0' } },
      ]),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { envelopeId } = created.json<{ envelopeId: string }>();
    const pdf = await app.inject({
      method: 'GET',
      url: `${accountPath}/envelopes/${envelopeId}/documents/1`,
      headers: authHeader(),
    });
    expect(pdf.statusCode).toBe(200);
    const text = (await tool('pdftotext', [tempPdf(pdf.rawPayload), '-'])).out;
    expect(text).toContain('Dear Ada Lovelace,');
    expect(text).toContain('Your salary is 62,000.');
    expect(text).not.toContain('{{');
  });

  it('refuses a field without a value and a value for a field the document lacks', async () => {
    const missing = await post(envelope([{ name: 'Candidate_Name', value: 'Ada Lovelace' }]));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errorCode: 'INVALID_REQUEST_BODY' });
    expect(missing.json<{ message: string }>().message).toContain('Salary');
    const unknown = await post(
      envelope([
        { name: 'Candidate_Name', value: 'Ada' },
        { name: 'Salary', value: '1' },
        { name: 'Bonus', value: '2' },
      ]),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('Bonus');
  });
});
