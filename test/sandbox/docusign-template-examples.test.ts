import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, login, makePdf } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// DocuSign's own template examples (github.com/docusign/code-examples-node,
// lib/eSignature/examples: createTemplate.js = eg008, useTemplate.js = eg009,
// addDocToTemplate.js = eg013, setTemplateTabValues.js = eg017), their JSON
// as the Node SDK sends it, unchanged but for our own small documents. The
// SDK's constructFromObject copies only the properties a model knows, so
// eg017's snake_case `textExtra` goes on the wire as `{}`.

let sandbox: RunningSandbox;
let base: string;
let templateId: string;
const signer = { signerEmail: 'signer@example.com', signerName: 'Sam Signer', signerClientId: '1000' };
const cc = { ccEmail: 'cc@example.com', ccName: 'Cee Cee' };

beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => {
  await sandbox.close();
});

/** eg008's makeTemplate(args), as JSON. */
function makeTemplate(docPdfBytes: Buffer, templateName: string) {
  const at = (x: string, y: string) => ({ documentId: '1', pageNumber: '1', xPosition: x, yPosition: y });
  return {
    documents: [
      { documentBase64: docPdfBytes.toString('base64'), name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '1' },
    ],
    emailSubject: 'Please sign this document',
    description: 'Example template created via the API',
    name: templateName,
    shared: 'false',
    recipients: {
      signers: [
        {
          roleName: 'signer',
          recipientId: '1',
          routingOrder: '1',
          tabs: {
            checkboxTabs: [
              { ...at('75', '417'), tabLabel: 'ckAuthorization' },
              { ...at('75', '447'), tabLabel: 'ckAuthentication' },
              { ...at('75', '478'), tabLabel: 'ckAgreement' },
              { ...at('75', '508'), tabLabel: 'ckAcknowledgement' },
            ],
            listTabs: [
              {
                ...at('142', '291'),
                font: 'helvetica',
                fontSize: 'size14',
                tabLabel: 'list',
                required: 'false',
                listItems: ['Red', 'Orange', 'Yellow', 'Green', 'Blue', 'Indigo', 'Violet'].map((text) => ({
                  text,
                  value: text.toLowerCase(),
                })),
              },
            ],
            numericalTabs: [
              {
                validationType: 'Currency',
                ...at('163', '260'),
                font: 'helvetica',
                fontSize: 'size14',
                tabLabel: 'numericalCurrency',
                height: '23',
                width: '84',
                required: 'false',
              },
            ],
            radioGroupTabs: [
              {
                documentId: '1',
                groupName: 'radio1',
                radios: [
                  {
                    font: 'helvetica',
                    fontSize: 'size14',
                    pageNumber: '1',
                    value: 'white',
                    xPosition: '142',
                    yPosition: '384',
                    required: 'false',
                  },
                  {
                    font: 'helvetica',
                    fontSize: 'size14',
                    pageNumber: '1',
                    value: 'red',
                    xPosition: '74',
                    yPosition: '384',
                    required: 'false',
                  },
                  {
                    font: 'helvetica',
                    fontSize: 'size14',
                    pageNumber: '1',
                    value: 'blue',
                    xPosition: '220',
                    yPosition: '384',
                    required: 'false',
                  },
                ],
              },
            ],
            signHereTabs: [at('191', '148')],
            textTabs: [
              {
                ...at('153', '230'),
                font: 'helvetica',
                fontSize: 'size14',
                tabLabel: 'text',
                height: '23',
                width: '84',
                required: 'false',
              },
            ],
          },
        },
      ],
      carbonCopies: [{ roleName: 'cc', routingOrder: '2', recipientId: '2' }],
    },
    status: 'created',
  };
}

describe("DocuSign's template examples, unchanged", () => {
  it('eg008 create template: lists by search_text, creates when missing, finds it the second time', async () => {
    const templateName = 'Example Signer and CC template v2';
    const first = await call(`${base}/templates?search_text=${encodeURIComponent(templateName)}`, {
      headers: authHeader(),
    });
    expect(Number(first.json.resultSetSize)).toBe(0);
    const created = await call(`${base}/templates`, {
      headers: authHeader(),
      body: makeTemplate(await makePdf(1, 'Lorem ipsum'), templateName),
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.name).toBe(templateName);
    templateId = created.json.templateId as string;
    const again = await call(`${base}/templates?search_text=${encodeURIComponent(templateName)}`, {
      headers: authHeader(),
    });
    expect(Number(again.json.resultSetSize)).toBeGreaterThan(0);
    expect(again.json.envelopeTemplates[0]).toMatchObject({ templateId, name: templateName });
  });

  it('eg009 use template: templateId and two templateRoles, sent', async () => {
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        templateRoles: [
          { email: signer.signerEmail, name: signer.signerName, roleName: 'signer' },
          { email: cc.ccEmail, name: cc.ccName, roleName: 'cc' },
        ],
        status: 'sent',
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.status).toBe('sent');
    const recipients = await call(`${base}/envelopes/${created.json.envelopeId}/recipients`, { headers: authHeader() });
    expect(recipients.json.signers[0]).toMatchObject({ roleName: 'signer', email: signer.signerEmail });
    expect(recipients.json.carbonCopies[0]).toMatchObject({ roleName: 'cc', email: cc.ccEmail });
    expect(
      (await call(`${base}/envelopes/${created.json.envelopeId}`, { headers: authHeader() })).json.emailSubject,
    ).toBe('Please sign this document');
  });

  it('eg017 set template tab values: role tabs by label, an embedded signer, a custom field, then the view', async () => {
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        status: 'sent',
        templateRoles: [
          {
            email: signer.signerEmail,
            name: signer.signerName,
            roleName: 'signer',
            clientUserId: signer.signerClientId,
            tabs: {
              checkboxTabs: [
                { tabLabel: 'ckAuthorization', selected: 'true' },
                { tabLabel: 'ckAgreement', selected: 'true' },
              ],
              radioGroupTabs: [{ groupName: 'radio1', radios: [{ value: 'white', selected: 'true' }] }],
              textTabs: [{ tabLabel: 'text', value: 'Jabberwocky!' }, {}],
              listTabs: [{ value: 'green', documentId: '1', pageNumber: '1', tabLabel: 'list' }],
            },
          },
          { email: cc.ccEmail, name: cc.ccName, roleName: 'cc' },
        ],
        customFields: {
          textCustomFields: [{ name: 'app metadata item', required: 'false', show: 'true', value: '1234567' }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const tabs = (await call(`${base}/envelopes/${envelopeId}/recipients/1/tabs`, { headers: authHeader() })).json;
    expect(tabs.textTabs).toEqual([
      expect.objectContaining({ tabLabel: 'text', value: 'Jabberwocky!', xPosition: '153' }),
    ]);
    expect(tabs.listTabs[0]).toMatchObject({ tabLabel: 'list', value: 'green' });
    expect(
      tabs.checkboxTabs
        .filter((t: { selected: string }) => t.selected === 'true')
        .map((t: { tabLabel: string }) => t.tabLabel),
    ).toEqual(['ckAuthorization', 'ckAgreement']);
    const view = await call(`${base}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        returnUrl: 'http://127.0.0.1:9/ds-return',
        authenticationMethod: 'none',
        email: signer.signerEmail,
        userName: signer.signerName,
        clientUserId: signer.signerClientId,
      },
    });
    expect(view.status, JSON.stringify(view.json)).toBe(201);
  });

  it('eg013 add doc to template: a server template with inline roles, then an HTML document with an anchored tab', async () => {
    const signer1 = {
      email: signer.signerEmail,
      name: signer.signerName,
      roleName: 'signer',
      recipientId: '1',
      clientUserId: signer.signerClientId,
    };
    const cc1 = { email: cc.ccEmail, name: cc.ccName, roleName: 'cc', recipientId: '2' };
    const html = `<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body style="font-family:sans-serif;margin-left:2em;">
      <h1>World Wide Corp</h1><h2>Order Processing Division</h2><h4>Ordered by ${signer.signerName}</h4>
      <p>Email: ${signer.signerEmail}</p><p>Copy to: ${cc.ccName}, ${cc.ccEmail}</p>
      <p>Item: <b>Widget</b>, quantity: <b>5</b> at market price.</p>
      <h3 style="margin-top:3em;">Agreed: <span style="color:white;">**signature_1**/</span></h3></body></html>`;
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        status: 'sent',
        compositeTemplates: [
          {
            compositeTemplateId: '1',
            serverTemplates: [{ sequence: '1', templateId }],
            inlineTemplates: [{ sequence: '2', recipients: { carbonCopies: [cc1], signers: [signer1] } }],
          },
          {
            compositeTemplateId: '2',
            inlineTemplates: [
              {
                sequence: '1',
                recipients: {
                  carbonCopies: [cc1],
                  signers: [
                    {
                      email: signer.signerEmail,
                      name: signer.signerName,
                      roleName: 'signer',
                      recipientId: '1',
                      tabs: {
                        signHereTabs: [
                          {
                            anchorString: '**signature_1**',
                            anchorYOffset: '10',
                            anchorUnits: 'pixels',
                            anchorXOffset: '20',
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            ],
            document: {
              documentBase64: Buffer.from(html).toString('base64'),
              name: 'Appendix 1--Sales order',
              fileExtension: 'html',
              documentId: '1',
            },
          },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const documents = await call(`${base}/envelopes/${envelopeId}/documents`, { headers: authHeader() });
    expect(
      documents.json.envelopeDocuments
        .filter((d: { type: string }) => d.type === 'content')
        .map((d: { name: string }) => d.name),
    ).toEqual(['Lorem Ipsum', 'Appendix 1--Sales order']);
    const recipients = await call(`${base}/envelopes/${envelopeId}/recipients?include_tabs=true`, {
      headers: authHeader(),
    });
    expect(recipients.json.signers).toHaveLength(1);
    expect(recipients.json.carbonCopies).toHaveLength(1);
    const signHere = recipients.json.signers[0].tabs.signHereTabs.map((t: { documentId: string }) => t.documentId);
    // The template's sign-here on the first document, the anchored one found in the converted HTML (the second).
    expect(signHere.sort()).toEqual(['1', '2']);
    const view = await call(`${base}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        returnUrl: 'http://127.0.0.1:9/ds-return',
        authenticationMethod: 'none',
        email: signer.signerEmail,
        userName: signer.signerName,
        clientUserId: signer.signerClientId,
        pingFrequency: 600,
      },
    });
    expect(view.status, JSON.stringify(view.json)).toBe(201);
  });
});
