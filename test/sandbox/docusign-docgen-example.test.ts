import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { docxOfBody, paragraphOfRuns, tableOf } from '../helpers/docx-of-body.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { authHeader, call, expectApiError, login } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// DocuSign's example 42 (github.com/docusign/code-examples-node,
// lib/eSignature/examples/documentGeneration.js, "Request a signature by
// email with document generation"): its eight requests, their JSON as the
// Node SDK sends it, unchanged but for our own small DOCX with the merge
// fields of its Offer_Letter_Dynamic_Table.docx. A template without
// documents, its DOCX put in place (no isDocGenDocument: DocuSign finds the
// merge fields), tabs added by anchor, a draft from the template, its
// docGenFormFields read and set (a table row of three rows), then sent.

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

/** The offer letter: the example's merge fields, its table row, its two anchors. */
const offerLetter = docxOfBody(
  paragraphOfRuns('Dear {{Candidate_', 'Name}},') +
    paragraphOfRuns('We are pleased to offer you the position of {{Job_Title}}, reporting to {{Manager_Name}}.') +
    paragraphOfRuns('Your start date is {{Start_Date}}.') +
    tableOf([
      [paragraphOfRuns('Component'), paragraphOfRuns('Details')],
      [
        paragraphOfRuns('{{t:"TableRow", e:"Compensation_Package"}}{{Compensation_Component}}'),
        paragraphOfRuns('{{Details}}'),
      ],
    ]) +
    paragraphOfRuns('Employee Signature') +
    paragraphOfRuns('Date Signed'),
);

const args = {
  candidateEmail: 'candidate@example.com',
  candidateName: 'Cara Candidate',
  managerName: 'Max Manager',
  jobTitle: 'Software Engineer',
  salary: '120000',
  rsus: '5,000',
  startDate: '2027-03-01',
};

/** Steps 2 to 8 of sendEnvelope(args), each request's JSON as the SDK sends it. */
async function eg042(): Promise<{ envelopeId: string; guids: string[]; answers: Record<string, any> }> {
  const template = await call(`${base}/templates`, {
    headers,
    body: {
      name: 'Example document generation template',
      description: 'Example template created via the API',
      emailSubject: 'Please sign this document',
      shared: 'false',
      recipients: { signers: [{ roleName: 'signer', recipientId: '1', routingOrder: '1' }] },
      status: 'created',
    },
  });
  expect(template.status, JSON.stringify(template.json)).toBe(201);
  const templateId = template.json.templateId as string;

  const document = await call(`${base}/templates/${templateId}/documents/1`, {
    method: 'PUT',
    headers,
    body: {
      documents: [
        {
          documentBase64: offerLetter.toString('base64'),
          name: 'OfferLetterDemo.docx',
          fileExtension: 'docx',
          documentId: 1,
          order: 1,
          pages: 1,
        },
      ],
    },
  });
  expect(document.status, JSON.stringify(document.json)).toBe(200);

  const tabs = await call(`${base}/templates/${templateId}/recipients/1/tabs`, {
    headers,
    body: {
      signHereTabs: [
        { anchorString: 'Employee Signature', anchorUnits: 'pixels', anchorXOffset: '5', anchorYOffset: '-22' },
      ],
      dateSignedTabs: [{ anchorString: 'Date Signed', anchorUnits: 'pixels', anchorYOffset: '-22' }],
    },
  });
  expect(tabs.status, JSON.stringify(tabs.json)).toBe(201);

  const envelope = await call(`${base}/envelopes`, {
    headers,
    body: {
      templateRoles: [{ email: args.candidateEmail, name: args.candidateName, roleName: 'signer' }],
      status: 'created',
      templateId,
    },
  });
  expect(envelope.status, JSON.stringify(envelope.json)).toBe(201);
  const envelopeId = envelope.json.envelopeId as string;

  const read = await call(`${base}/envelopes/${envelopeId}/docGenFormFields`, { headers });
  expect(read.status, JSON.stringify(read.json)).toBe(200);
  const documentIdGuid = read.json.docGenFormFields[0].documentId as string;

  const row = (component: string, details: string) => ({
    docGenFormFieldList: [
      { name: 'Compensation_Component', value: component },
      { name: 'Details', value: details },
    ],
  });
  const set = await call(`${base}/envelopes/${envelopeId}/docGenFormFields`, {
    method: 'PUT',
    headers,
    body: {
      docGenFormFields: [
        {
          documentId: documentIdGuid,
          docGenFormFieldList: [
            { name: 'Candidate_Name', value: args.candidateName },
            { name: 'Manager_Name', value: args.managerName },
            { name: 'Job_Title', value: args.jobTitle },
            { name: 'Start_Date', value: args.startDate },
            {
              name: 'Compensation_Package',
              type: 'TableRow',
              rowValues: [row('Salary', `$${args.salary}`), row('Bonus', '20%'), row('RSUs', args.rsus)],
            },
          ],
        },
      ],
    },
  });
  expect(set.status, JSON.stringify(set.json)).toBe(200);

  const sent = await call(`${base}/envelopes/${envelopeId}`, { method: 'PUT', headers, body: { status: 'sent' } });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  return {
    envelopeId,
    guids: [documentIdGuid, set.json.docGenFormFields[0].documentId as string],
    answers: { read: read.json, set: set.json, sent: sent.json },
  };
}

describe("DocuSign's example 42 (document generation) against the sandbox", () => {
  it('lists the merge fields of the draft made from the template, each required, the table row with its columns', async () => {
    const { answers } = await eg042();
    const [fields] = answers.read.docGenFormFields;
    expect(fields.documentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fields.docGenFormFieldList.map((f: { name: string }) => f.name)).toEqual([
      'Candidate_Name',
      'Job_Title',
      'Manager_Name',
      'Start_Date',
      'Compensation_Package',
    ]);
    expect(fields.docGenFormFieldList.every((f: { required: string }) => f.required === 'true')).toBe(true);
    expect(fields.docGenFormFieldList[4]).toMatchObject({
      type: 'TableRow',
      rowValues: [{ docGenFormFieldList: [{ name: 'Compensation_Component' }, { name: 'Details' }] }],
    });
  });

  it('sends the generated letter: the values in it, three table rows, a new document GUID, the tabs at its anchors', async () => {
    const { envelopeId, guids } = await eg042();
    expect(guids[1]).not.toBe(guids[0]);
    const envelope = await call(`${base}/envelopes/${envelopeId}`, { headers });
    expect(envelope.json.status).toBe('sent');
    const pdf = await call(`${base}/envelopes/${envelopeId}/documents/1`, { headers });
    const text = (await tool('pdftotext', ['-layout', tempPdf(pdf.bytes), '-'])).out;
    expect(text).toContain('Dear Cara Candidate,');
    expect(text).toContain('position of Software Engineer, reporting to Max Manager.');
    for (const cell of ['Salary', '$120000', 'Bonus', '20%', 'RSUs', '5,000']) expect(text).toContain(cell);
    expect(text).not.toContain('{{');
    const tabs = await call(`${base}/envelopes/${envelopeId}/recipients/1/tabs`, { headers });
    expect(tabs.json.signHereTabs).toHaveLength(1);
    expect(tabs.json.dateSignedTabs).toHaveLength(1);
    // The tabs are placed on the generated letter, whose two extra table rows push the signature line down.
    const bbox = (await tool('pdftotext', ['-bbox', tempPdf(pdf.bytes), '-'])).out;
    const word = /<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>Employee<\/word>/.exec(bbox);
    expect(word).not.toBeNull();
    const anchorTop = Number(word![1]);
    expect(Math.abs(Number(tabs.json.signHereTabs[0].yPosition) - (anchorTop - 22 * 0.75))).toBeLessThan(12);
  });

  it('refuses to set the fields of an envelope that is no longer a draft', async () => {
    const { envelopeId, guids } = await eg042();
    const again = await call(`${base}/envelopes/${envelopeId}/docGenFormFields`, {
      method: 'PUT',
      headers,
      body: { docGenFormFields: [{ documentId: guids[1], docGenFormFieldList: [{ name: 'Job_Title', value: 'x' }] }] },
    });
    expectApiError(again, 400, 'ENVELOPE_INVALID_STATUS');
  });
});
