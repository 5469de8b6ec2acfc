import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { authHeader, call, expectApiError, login } from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Conditional routing with a placeholder recipient, as DocuSign's eg034
// (code-examples-node, lib/eSignature/examples/useConditionalRecipients.js)
// sends it (the SDK turns its numbers and booleans into strings): signer 2
// is "Approver" without an email; when signer 1 has signed, the checkbox
// they left or ticked picks who approves (signer2a or signer2b).

let sandbox: RunningSandbox;
let base: string;
const auth = authHeader();
beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => sandbox.close());

/** eg034's makeEnvelope(args), as the SDK puts it on the wire. */
function eg034Envelope(tag: string) {
  const filter = (value: string) => ({
    scope: 'tabs',
    recipientId: '1',
    tabId: 'ApprovalTab',
    operator: 'equals',
    value,
    tabLabel: 'ApproveWhenChecked',
    tabType: 'checkbox',
  });
  return {
    emailSubject: 'EnvelopeWorkflowTest',
    documents: [
      {
        documentBase64: Buffer.from('Welcome to the world of conditional routing.\n').toString('base64'),
        name: 'Welcome',
        fileExtension: 'txt',
        documentId: '1',
      },
    ],
    status: 'sent',
    workflow: {
      workflowSteps: [
        {
          action: 'pause_before',
          triggerOnItem: 'routing_order',
          itemId: '2',
          status: 'pending',
          recipientRouting: {
            rules: {
              conditionalRecipients: [
                {
                  conditions: [
                    { filters: [filter('false')], order: '1', recipientLabel: 'signer2a' },
                    { filters: [filter('true')], order: '2', recipientLabel: 'signer2b' },
                  ],
                  recipientGroup: {
                    groupName: 'Approver',
                    groupMessage: 'Members of this group approve a workflow',
                    recipients: [
                      {
                        email: `not-checked-${tag}@example.com`,
                        name: 'Nora Notchecked',
                        roleName: 'Signer when not checked',
                        recipientLabel: 'signer2a',
                      },
                      {
                        email: `checked-${tag}@example.com`,
                        name: 'Chad Checked',
                        roleName: 'Signer when checked',
                        recipientLabel: 'signer2b',
                      },
                    ],
                  },
                  recipientId: '2',
                  order: '0',
                },
              ],
            },
          },
        },
      ],
    },
    recipients: {
      signers: [
        {
          email: `purchaser-${tag}@example.com`,
          name: 'Pat Purchaser',
          recipientId: '1',
          routingOrder: '1',
          roleName: 'Purchaser',
          tabs: {
            signHereTabs: [
              { documentId: '1', pageNumber: '1', tabLabel: 'Sign Here', xPosition: '200', yPosition: '200' },
            ],
            checkboxTabs: [
              {
                documentId: '1',
                pageNumber: '1',
                name: 'ClickToApprove',
                selected: 'false',
                tabLabel: 'ApproveWhenChecked',
                xPosition: '50',
                yPosition: '50',
              },
            ],
          },
        },
        {
          name: 'Approver',
          recipientId: '2',
          routingOrder: '2',
          roleName: 'Approver',
          tabs: {
            signHereTabs: [
              {
                documentId: '1',
                pageNumber: '1',
                tabLabel: ' Sign Here',
                recipientId: '2',
                xPosition: '300',
                yPosition: '200',
              },
            ],
          },
        },
      ],
    },
  };
}

const outbox = async (to: string) =>
  (
    (await (await sandboxFetch(`${sandbox.origin}/sandbox/outbox?to=${encodeURIComponent(to)}`)).json()) as {
      messages: { links: string[]; envelopeId: string }[];
    }
  ).messages;

/** Signer 1 signs from the link in their message, ticking the checkbox or not. */
async function purchaserSigns(tag: string, envelopeId: string, tick: boolean): Promise<void> {
  const [message] = await outbox(`purchaser-${tag}@example.com`);
  const link = message!.links.find((l) => l.startsWith(`${sandbox.origin}/signing/`))!;
  const recipients = await call(`${base}/envelopes/${envelopeId}/recipients?include_tabs=true`, { headers: auth });
  const checkbox = recipients.json.signers[0].tabs.checkboxTabs[0];
  const { sessionUrl, cookie, csrf } = await openSigningLink(link);
  const form: Record<string, string> = { signatureName: 'Pat Purchaser', csrfToken: csrf, fieldsShown: '1' };
  if (tick) form[`tab.${checkbox.tabId}`] = 'on';
  const res = await postForm(`${sessionUrl}/sign`, cookie, form);
  expect(res.status).toBe(303);
}

describe('conditional recipients (placeholders)', () => {
  it('creates the envelope with a placeholder that has no email, and picks signer2a when the box is left unticked', async () => {
    const created = await call(`${base}/envelopes`, { method: 'POST', headers: auth, body: eg034Envelope('a') });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const before = await call(`${base}/envelopes/${envelopeId}/recipients`, { headers: auth });
    expect(before.json.signers[1]).toMatchObject({ name: 'Approver', status: 'created' });
    expect(before.json.signers[1].email ?? '').toBe('');

    await purchaserSigns('a', envelopeId, false);
    const after = await call(`${base}/envelopes/${envelopeId}/recipients`, { headers: auth });
    expect(after.json.signers[1]).toMatchObject({
      name: 'Nora Notchecked',
      email: 'not-checked-a@example.com',
      status: 'sent',
    });
    expect((await outbox('not-checked-a@example.com')).map((m) => m.envelopeId)).toEqual([envelopeId]);
    expect(await outbox('checked-a@example.com')).toEqual([]);
  });

  it('picks signer2b when the purchaser ticks the box', async () => {
    const created = await call(`${base}/envelopes`, { method: 'POST', headers: auth, body: eg034Envelope('b') });
    const envelopeId = created.json.envelopeId as string;
    await purchaserSigns('b', envelopeId, true);
    const after = await call(`${base}/envelopes/${envelopeId}/recipients`, { headers: auth });
    expect(after.json.signers[1]).toMatchObject({
      name: 'Chad Checked',
      email: 'checked-b@example.com',
      status: 'sent',
    });
    expect(await outbox('not-checked-b@example.com')).toEqual([]);
  });

  it('still requires an email of a recipient no rule names, and a group member for every condition', async () => {
    const body = eg034Envelope('c');
    expectApiError(
      await call(`${base}/envelopes`, { method: 'POST', headers: auth, body: { ...body, workflow: undefined } }),
      400,
      'INVALID_REQUEST_BODY',
    );
    const rule = body.workflow.workflowSteps[0]!.recipientRouting.rules.conditionalRecipients[0]!;
    rule.conditions[1]!.recipientLabel = 'nobody';
    expectApiError(
      await call(`${base}/envelopes`, { method: 'POST', headers: auth, body }),
      400,
      'INVALID_REQUEST_BODY',
    );
  });
});
