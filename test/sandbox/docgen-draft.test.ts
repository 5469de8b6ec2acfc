import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { docxOfBody, paragraphOfRuns } from '../helpers/docx-of-body.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { authHeader, call, expectApiError, login } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// Issue 39, the sandbox: a DocGen DOCX on a draft, its fields read and set
// through …/docGenFormFields as DocuSign takes them, and the faults DocuSign
// refuses: a field without a value, a value for no field, another envelope's
// document, a draft sent before its fields are set.

let sandbox: RunningSandbox;
let base: string;
const headers = authHeader();

beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => {
  await sandbox.close();
});

const letter = docxOfBody(
  paragraphOfRuns('Dear {{Candidate_Name}},') +
    paragraphOfRuns('Your salary is {{Sal', 'ary}}.') +
    paragraphOfRuns('Sign here:'),
);

const signHere = { signHereTabs: [{ anchorString: 'Sign here:', anchorXOffset: '80' }] };

async function draft(isDocGenDocument = true, tabs: Record<string, unknown> = signHere): Promise<string> {
  const created = await call(`${base}/envelopes`, {
    headers,
    body: {
      emailSubject: 'Your offer',
      status: 'created',
      documents: [
        {
          documentId: '1',
          name: 'offer.docx',
          fileExtension: 'docx',
          documentBase64: letter.toString('base64'),
          ...(isDocGenDocument ? { isDocGenDocument: 'true' } : {}),
        },
      ],
      recipients: {
        signers: [
          {
            recipientId: '1',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            tabs,
          },
        ],
      },
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json.envelopeId as string;
}

const fieldsOf = (envelopeId: string) => call(`${base}/envelopes/${envelopeId}/docGenFormFields`, { headers });
const put = (envelopeId: string, documentId: string, list: unknown[], query = '') =>
  call(`${base}/envelopes/${envelopeId}/docGenFormFields${query}`, {
    method: 'PUT',
    headers,
    body: { docGenFormFields: [{ documentId, docGenFormFieldList: list }] },
  });
const send = (envelopeId: string) =>
  call(`${base}/envelopes/${envelopeId}`, { method: 'PUT', headers, body: { status: 'sent' } });
const letterText = async (envelopeId: string) =>
  (
    await tool('pdftotext', [
      tempPdf((await call(`${base}/envelopes/${envelopeId}/documents/1`, { headers })).bytes),
      '-',
    ])
  ).out;
const values = [
  { name: 'Candidate_Name', value: 'Ada Lovelace' },
  { name: 'Salary', value: '62000', type: 'Number', format: { expression: '#,##0' } },
];

describe('docGenFormFields of a draft', () => {
  it('lists the fields of a draft marked isDocGenDocument, and nothing for a DOCX sent plain', async () => {
    const read = await fieldsOf(await draft());
    expect(read.status).toBe(200);
    expect(read.json.docGenFormFields).toEqual([
      {
        documentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        docGenDocumentStatus: 'created',
        docGenFormFieldList: [
          { name: 'Candidate_Name', label: 'Candidate_Name', required: 'true', type: 'TextBox' },
          { name: 'Salary', label: 'Salary', required: 'true', type: 'TextBox' },
        ],
      },
    ]);
    // The same DOCX without the flag is an ordinary document: no fields, as DocuSign answers {} then.
    expect((await fieldsOf(await draft(false))).json).toEqual({});
  });

  it('refuses a field without a value, a value for no field and a document that is not a DocGen one of the envelope', async () => {
    const envelopeId = await draft();
    const guid = (await fieldsOf(envelopeId)).json.docGenFormFields[0].documentId as string;
    const missing = await put(envelopeId, guid, [values[0]]);
    expectApiError(missing, 400, 'INVALID_REQUEST_PARAMETER');
    expect(missing.json.message).toContain('Salary');
    const unknown = await put(envelopeId, guid, [...values, { name: 'Bonus', value: '10%' }]);
    expectApiError(unknown, 400, 'INVALID_REQUEST_PARAMETER');
    expect(unknown.json.message).toContain('Bonus');
    expectApiError(
      await put(envelopeId, 'bf3202e1-0000-0000-0000-af4f41366879', values),
      400,
      'DOCUMENT_DOES_NOT_EXIST',
    );
    // Nothing was set: the draft still cannot be sent.
    const refused = await send(envelopeId);
    expectApiError(refused, 400, 'INVALID_REQUEST_PARAMETER');
    expect(refused.json.message).toContain('Candidate_Name, Salary');
  });

  it('generates the letter at PUT (a new GUID), places the tabs on it, and refuses a second PUT once sent', async () => {
    const envelopeId = await draft();
    const before = (await fieldsOf(envelopeId)).json.docGenFormFields[0].documentId as string;
    const set = await put(envelopeId, before, values);
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    const after = set.json.docGenFormFields[0];
    expect(after.documentId).not.toBe(before);
    expect(after.docGenDocumentStatus).toBe('generated');
    expect(after.docGenFormFieldList[1]).toMatchObject({ name: 'Salary', value: '62000', type: 'Number' });
    const text = await letterText(envelopeId);
    expect(text).toContain('Dear Ada Lovelace,');
    expect(text).toContain('Your salary is 62,000.');
    expect((await send(envelopeId)).status).toBe(200);
    expectApiError(await put(envelopeId, after.documentId as string, values), 400, 'ENVELOPE_INVALID_STATUS');
  });

  it('places a tab whose anchor only the generated letter holds (a value), at PUT or at the send; refuses one in neither', async () => {
    const tabsOf = async (envelopeId: string) =>
      (await call(`${base}/envelopes/${envelopeId}/recipients/1/tabs`, { headers })).json as {
        textTabs: Array<Record<string, string>>;
      };
    const byValue = { textTabs: [{ tabLabel: 'Greeting', anchorString: 'Dear Ada Lovelace', anchorYOffset: '14' }] };
    // At creation the draft holds the template ("Dear {{Candidate_Name}},"): the tab waits for the letter.
    for (const query of ['', '?update_docgen_formfields_only=true']) {
      const envelopeId = await draft(true, byValue);
      const guid = (await fieldsOf(envelopeId)).json.docGenFormFields[0].documentId as string;
      expect((await put(envelopeId, guid, values, query)).status).toBe(200);
      expect((await send(envelopeId)).status).toBe(200);
      const [tab] = (await tabsOf(envelopeId)).textTabs;
      expect(tab, query).toMatchObject({ tabLabel: 'Greeting', documentId: '1', pageNumber: '1' });
      expect(Number(tab?.yPosition)).toBeGreaterThan(0);
    }
    // An anchor the letter does not hold either: refused when the letter is made, and the draft is not sent with it.
    const nowhere = await draft(true, { textTabs: [{ tabLabel: 'Lost', anchorString: 'Dear Grace Hopper' }] });
    const guid = (await fieldsOf(nowhere)).json.docGenFormFields[0].documentId as string;
    expectApiError(await put(nowhere, guid, values), 400, 'ANCHOR_TAB_STRING_NOT_FOUND');
    expectApiError(await send(nowhere), 400, 'ANCHOR_TAB_STRING_NOT_FOUND');
    // A draft of PDFs or letters with their values keeps DocuSign's answer at creation.
    const plain = await call(`${base}/envelopes`, {
      headers,
      body: {
        emailSubject: 'Plain',
        status: 'created',
        documents: [
          { documentId: '1', name: 'offer.docx', fileExtension: 'docx', documentBase64: letter.toString('base64') },
        ],
        recipients: { signers: [{ recipientId: '1', name: 'Ada', email: 'ada@example.com', tabs: byValue }] },
      },
    });
    expectApiError(plain, 400, 'ANCHOR_TAB_STRING_NOT_FOUND');
  });

  it('places an anchored radio once per occurrence in the letter, as the preview does, not once per earlier copy', async () => {
    // "ar" is twice in the template ("Dear", "{{Salary}}") and twice in the letter ("Dear", "salary").
    const envelopeId = await draft(true, {
      radioGroupTabs: [{ groupName: 'Choice', radios: [{ value: 'yes', anchorString: 'ar', anchorXOffset: '300' }] }],
    });
    const guid = (await fieldsOf(envelopeId)).json.docGenFormFields[0].documentId as string;
    expect((await put(envelopeId, guid, values)).status).toBe(200);
    const tabs = (await call(`${base}/envelopes/${envelopeId}/recipients/1/tabs`, { headers })).json as {
      radioGroupTabs: Array<{ radios: Array<Record<string, string>> }>;
    };
    const radios = tabs.radioGroupTabs[0]?.radios ?? [];
    expect(radios.map((r) => r['value'])).toEqual(['yes', 'yes']);
    expect(new Set(radios.map((r) => r['yPosition'])).size).toBe(2);
  });

  it('with update_docgen_formfields_only=true keeps the GUID and the draft, and generates the letter when sent', async () => {
    const envelopeId = await draft();
    const guid = (await fieldsOf(envelopeId)).json.docGenFormFields[0].documentId as string;
    const set = await put(envelopeId, guid, values, '?update_docgen_formfields_only=true');
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json.docGenFormFields[0]).toMatchObject({ documentId: guid, docGenDocumentStatus: 'created' });
    expect(await letterText(envelopeId)).toContain('{{Candidate_Name}}');
    expect((await send(envelopeId)).status).toBe(200);
    const text = await letterText(envelopeId);
    expect(text).toContain('Dear Ada Lovelace,');
    expect(text).not.toContain('{{');
  });

  it('is sent from the sender view as through the API: the letter generated, or refused without its values', async () => {
    const sendFromPage = async (envelopeId: string) => {
      const view = await call(`${base}/envelopes/${envelopeId}/views/sender`, {
        headers,
        body: { returnUrl: 'https://app.example.com/sent' },
      });
      expect(view.status, JSON.stringify(view.json)).toBe(201);
      // The sender page's link and form, as the signing page's (a cookie, a CSRF token, a POST).
      const page = await openSigningLink(view.json.url as string);
      return postForm(`${page.sessionUrl}/send`, page.cookie, { csrfToken: page.csrf });
    };
    const unset = await draft();
    const refused = await sendFromPage(unset);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('Candidate_Name, Salary');

    const kept = await draft();
    const guid = (await fieldsOf(kept)).json.docGenFormFields[0].documentId as string;
    await put(kept, guid, values, '?update_docgen_formfields_only=true');
    expect((await sendFromPage(kept)).status).toBe(303);
    expect((await call(`${base}/envelopes/${kept}`, { headers })).json.status).toBe('sent');
    expect(await letterText(kept)).toContain('Your salary is 62,000.');
  });
});
