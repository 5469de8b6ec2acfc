import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, login, makePdf } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// DocuSign's eg017 (code-examples-node, lib/eSignature/examples/setTemplateTabValues.js)
// selects a radio of eg008's template group by its groupName, giving only
// the radio it selects: `radioGroupTabs: [{ groupName: 'radio1', radios:
// [{ value: 'white', selected: 'true' }] }]` ("You only need to provide the
// radio entry for the entry you're selecting"). The sandbox filled role tabs
// by tabLabel only — a radio group has none — so nothing was selected
// (bench/fidelity read it back).

let sandbox: RunningSandbox;
let base: string;
let templateId: string;

const radio = (value: string, x: string) => ({
  font: 'helvetica',
  fontSize: 'size14',
  pageNumber: '1',
  value,
  xPosition: x,
  yPosition: '384',
  required: 'false',
});

beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true });
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
  // eg008's template, its radio group as the example makes it.
  const created = await call(`${base}/templates`, {
    headers: authHeader(),
    body: {
      name: 'Example Signer and CC template',
      description: 'Example template created via the API',
      emailSubject: 'Please sign this document',
      shared: 'false',
      status: 'created',
      documents: [
        {
          documentBase64: (await makePdf(1)).toString('base64'),
          documentId: '1',
          fileExtension: 'pdf',
          name: 'Lorem Ipsum',
        },
      ],
      recipients: {
        signers: [
          {
            roleName: 'signer',
            recipientId: '1',
            routingOrder: '1',
            tabs: {
              signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '191', yPosition: '148' }],
              radioGroupTabs: [
                {
                  documentId: '1',
                  groupName: 'radio1',
                  radios: [radio('white', '142'), radio('red', '74'), radio('blue', '220')],
                },
              ],
            },
          },
        ],
        carbonCopies: [{ roleName: 'cc', routingOrder: '2', recipientId: '2' }],
      },
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  templateId = created.json.templateId as string;
});
afterAll(async () => sandbox.close());

describe("eg017's radio group value on a template role", () => {
  it('selects the radio the role names in the template group of that groupName, and only it', async () => {
    const created = await call(`${base}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        templateRoles: [
          {
            email: 'signer@example.com',
            name: 'Sam Signer',
            roleName: 'signer',
            clientUserId: '1000',
            tabs: { radioGroupTabs: [{ groupName: 'radio1', radios: [{ value: 'white', selected: 'true' }] }] },
          },
          { email: 'cc@example.com', name: 'Cee Cee', roleName: 'cc' },
        ],
        status: 'sent',
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const tabs = await call(`${base}/envelopes/${created.json.envelopeId as string}/recipients/1/tabs`, {
      headers: authHeader(),
    });
    expect(tabs.status).toBe(200);
    const groups = tabs.json.radioGroupTabs as {
      groupName: string;
      radios: { value: string; selected?: string; xPosition: string }[];
    }[];
    expect(groups).toHaveLength(1);
    expect(groups[0]!.groupName).toBe('radio1');
    expect(groups[0]!.radios.map((r) => [r.value, r.selected ?? 'false', r.xPosition])).toEqual([
      ['white', 'true', '142'],
      ['red', 'false', '74'],
      ['blue', 'false', '220'],
    ]);
  });
});
