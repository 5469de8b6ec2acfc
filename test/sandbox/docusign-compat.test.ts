import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf, templateId } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// What DocuSign accepts from its existing clients, the sandbox accepts too (issue 11, item 9).
let sandbox: RunningSandbox;
let baseUrl: string;
beforeAll(async () => {
  sandbox = await injectedSandbox();
  baseUrl = (await login(`${sandbox.origin}/restapi/v2.1`)).baseUrl;
});
afterAll(async () => sandbox.close());

describe('routingOrder 0 (pydocusign sends it by default)', () => {
  it('takes 0 and "0" as "not given": the default order 1', async () => {
    const pdf = await makePdf(1);
    const definition = documentEnvelope(pdf) as { recipients: { signers: Array<Record<string, unknown>> } };
    definition.recipients.signers[0]!['routingOrder'] = 0;
    definition.recipients.signers[1]!['routingOrder'] = '0';
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: definition });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const recipients = await call(`${baseUrl}/envelopes/${created.json.envelopeId}/recipients`, {
      headers: authHeader(),
    });
    expect(recipients.json.signers.map((s: { routingOrder: string }) => s.routingOrder)).toEqual(['1', '1']);
  });

  it("takes 0 on a template role as the template's own order", async () => {
    const created = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        status: 'sent',
        templateRoles: [
          { roleName: 'employee', name: 'A', email: 'a@example.com', clientUserId: 'a', routingOrder: 0 },
          { roleName: 'employer', name: 'B', email: 'b@example.com', clientUserId: 'b', routingOrder: '2' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const recipients = await call(`${baseUrl}/envelopes/${created.json.envelopeId}/recipients`, {
      headers: authHeader(),
    });
    expect(recipients.json.signers.map((s: { routingOrder: string }) => s.routingOrder)).toEqual(['1', '2']);
  });

  it('still refuses a negative or fractional order', async () => {
    const pdf = await makePdf(1);
    for (const order of [-1, '1.5']) {
      const definition = documentEnvelope(pdf) as { recipients: { signers: Array<Record<string, unknown>> } };
      definition.recipients.signers[0]!['routingOrder'] = order;
      expectApiError(
        await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: definition }),
        400,
        'INVALID_REQUEST_BODY',
      );
    }
  });
});
