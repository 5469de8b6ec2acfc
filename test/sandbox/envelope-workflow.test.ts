import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { Clock } from '../../src/sandbox/platform/clock.js';
import { envelopeWorkflows } from '../../src/sandbox/esignature/envelopes/workflow/envelope-workflow.js';
import { authHeader, call, login } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// DocuSign's Advanced Recipient Routing as its Node examples use it
// (code-examples-node, lib/eSignature/examples): eg032 pauses before routing
// order 2 and eg033 lifts the pause; eg035 schedules the sending; eg036
// delays routing order 2. The bodies are the examples' (workflow parts
// verbatim, as docusign-esign serialises them); eg033's is the documented
// unpause its code means to send. The sandbox read none of it:
// every recipient was sent at once. Its clock is moved here, never waited for.

let now = Date.parse('2026-11-26T09:00:00Z');
const clock: Clock = { now: () => now };
let sandbox: RunningSandbox;
let baseUrl: string;

beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true }, { clock });
  baseUrl = (await login(`${sandbox.origin}/restapi/v2.1`)).baseUrl;
});
afterAll(async () => sandbox.close());

const welcome = (text: string) => ({
  documentBase64: Buffer.from(text).toString('base64'),
  name: 'Welcome',
  fileExtension: 'txt',
  documentId: 1,
});

const signer = (n: number, email: string, routingOrder: number, tabs: Record<string, unknown>) => ({
  email,
  name: `Signer ${n}`,
  recipientId: n,
  routingOrder,
  tabs,
});

async function create(body: Record<string, unknown>): Promise<string> {
  const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json.envelopeId as string;
}

async function signerStatuses(envelopeId: string): Promise<string[]> {
  const r = await call(`${baseUrl}/envelopes/${envelopeId}/recipients`, { headers: authHeader() });
  expect(r.status).toBe(200);
  return (r.json.signers as { status: string }[]).map((s) => s.status);
}

async function workflow(envelopeId: string): Promise<Record<string, any>> {
  const r = await call(`${baseUrl}/envelopes/${envelopeId}/workflow`, { headers: authHeader() });
  expect(r.status).toBe(200);
  return r.json as Record<string, any>;
}

async function mailTo(email: string): Promise<number> {
  const r = await call(`${sandbox.origin}/sandbox/outbox?format=json`);
  return (r.json.messages as { to: string; kind: string }[]).filter(
    (m) => m.to === email && m.kind === 'envelope-notification',
  ).length;
}

const signAs = (envelopeId: string, recipientId: string) =>
  sandbox.app.sandbox.lifecycle.markSigned(envelopeId, recipientId, {});

describe('pausing (eg032) and unpausing (eg033) a signature workflow', () => {
  it('pauses before routing order 2 once order 1 has signed, and sends order 2 when the pause is lifted', async () => {
    const envelopeId = await create({
      emailSubject: 'EnvelopeWorkflowTest',
      documents: [welcome('Welcome to the pause example')],
      status: 'sent',
      workflow: { workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: 2 }] },
      recipients: {
        signers: [
          signer(1, 'pause-1@example.com', 1, {
            signHereTabs: [{ documentId: 1, pageNumber: 1, tabLabel: 'Sign Here', xPosition: 200, yPosition: 200 }],
          }),
          signer(2, 'pause-2@example.com', 2, {
            signHereTabs: [{ documentId: 1, pageNumber: 1, tabLabel: ' Sign Here', xPosition: 300, yPosition: 200 }],
          }),
        ],
      },
    });
    expect(await signerStatuses(envelopeId)).toEqual(['sent', 'created']);
    signAs(envelopeId, '1');
    expect(await signerStatuses(envelopeId)).toEqual(['completed', 'created']);
    const paused = await workflow(envelopeId);
    expect(paused.workflowStatus).toBe('paused');
    expect(paused.workflowSteps[0]).toMatchObject({ action: 'pause_before', itemId: '2', status: 'paused' });
    expect(await mailTo('pause-2@example.com')).toBe(0);

    // eg033 means this update (DocuSign's documented unpause). As shipped, its
    // envelopesApi.update(…, { envelopeDefinition, resendEnvelope: true }) puts `{}` on
    // the wire (docusign-esign reads opts.envelope): see docs/sandbox.md.
    const update = await call(`${baseUrl}/envelopes/${envelopeId}?resend_envelope=true`, {
      method: 'PUT',
      headers: authHeader(),
      body: { workflow: { workflowStatus: 'in_progress' } },
    });
    expect(update.status, JSON.stringify(update.json)).toBe(200);
    expect(update.json.envelopeId).toBe(envelopeId);
    expect(await signerStatuses(envelopeId)).toEqual(['completed', 'sent']);
    expect((await workflow(envelopeId)).workflowStatus).toBe('in_progress');
    expect(await mailTo('pause-2@example.com')).toBe(1);
  });
});

describe('scheduled sending (eg035)', () => {
  it('holds the first routing order until the resumeDate, then sends it', async () => {
    const envelopeId = await create({
      emailSubject: 'Please sign this document',
      documents: [{ ...welcome('Lorem ipsum. Please sign: /sn1/'), name: 'Lorem Ipsum', documentId: '1' }],
      workflow: { scheduledSending: { rules: [{ resumeDate: '2026-11-27' }] } },
      recipients: {
        signers: [
          {
            email: 'scheduled@example.com',
            name: 'Sam Scheduled',
            recipientId: '1',
            routingOrder: '1',
            tabs: {
              signHereTabs: [
                { anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
              ],
            },
          },
        ],
      },
      status: 'sent',
    });
    expect(await signerStatuses(envelopeId)).toEqual(['created']);
    expect(await mailTo('scheduled@example.com')).toBe(0);
    expect((await workflow(envelopeId)).scheduledSending).toMatchObject({
      status: 'started',
      resumeDate: '2026-11-27T00:00:00.000Z',
    });

    now = Date.parse('2026-11-26T23:59:59Z');
    expect(await signerStatuses(envelopeId)).toEqual(['created']);
    now = Date.parse('2026-11-27T00:00:01Z');
    expect(await signerStatuses(envelopeId)).toEqual(['sent']);
    expect(await mailTo('scheduled@example.com')).toBe(1);
    expect((await workflow(envelopeId)).scheduledSending.status).toBe('completed');
  });
});

describe('a held envelope voided before its time', () => {
  it('sends nobody when the time comes, and stops asking for it', async () => {
    const envelopeId = await create({
      emailSubject: 'Scheduled, then voided',
      documents: [welcome('Please sign')],
      workflow: { scheduledSending: { rules: [{ delay: '0.01:00:00' }] } },
      recipients: { signers: [signer(1, 'voided-later@example.com', 1, {})] },
      status: 'sent',
    });
    const voided = await call(`${baseUrl}/envelopes/${envelopeId}`, {
      method: 'PUT',
      headers: authHeader(),
      body: { status: 'voided', voidedReason: 'changed our minds' },
    });
    expect(voided.status, JSON.stringify(voided.json)).toBe(200);
    const workflows = envelopeWorkflows(sandbox.app.sandbox.db);
    now += 2 * 3600_000;
    expect(workflows.due(now)).toContain(envelopeId);
    expect(await signerStatuses(envelopeId)).toEqual(['created']);
    expect(await mailTo('voided-later@example.com')).toBe(0);
    expect(workflows.due(now)).not.toContain(envelopeId);
  });
});

describe('delayed routing (eg036)', () => {
  it('sends routing order 2 the delay after order 1 has signed', async () => {
    const envelopeId = await create({
      emailSubject: 'Please sign this document',
      documents: [welcome('Please sign: /sn1/ and /sn2/')],
      workflow: {
        workflowSteps: [
          {
            action: 'pause_before',
            triggerOnItem: 'routing_order',
            itemId: 2,
            delayedRouting: { rules: [{ delay: '0.2:00:00' }] },
          },
        ],
      },
      recipients: {
        signers: [
          signer(1, 'delay-1@example.com', 1, { signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'pixels' }] }),
          signer(2, 'delay-2@example.com', 2, { signHereTabs: [{ anchorString: '/sn2/', anchorUnits: 'pixels' }] }),
        ],
      },
      status: 'sent',
    });
    expect(await signerStatuses(envelopeId)).toEqual(['sent', 'created']);
    const signedAt = now;
    signAs(envelopeId, '1');
    expect(await signerStatuses(envelopeId)).toEqual(['completed', 'created']);
    const step = (await workflow(envelopeId)).workflowSteps[0];
    expect(step).toMatchObject({ status: 'in_progress', delayedRouting: { status: 'started' } });
    expect(step.delayedRouting.resumeDate).toBe(new Date(signedAt + 2 * 3600_000).toISOString());

    now = signedAt + 2 * 3600_000 - 1000;
    expect(await signerStatuses(envelopeId)).toEqual(['completed', 'created']);
    expect(await mailTo('delay-2@example.com')).toBe(0);
    now = signedAt + 2 * 3600_000;
    expect(await signerStatuses(envelopeId)).toEqual(['completed', 'sent']);
    expect(await mailTo('delay-2@example.com')).toBe(1);
  });

  it('refuses a delay that is not a time span, saying what one looks like', async () => {
    const r = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: {
        emailSubject: 'x',
        documents: [welcome('x')],
        workflow: {
          workflowSteps: [
            {
              action: 'pause_before',
              triggerOnItem: 'routing_order',
              itemId: 2,
              delayedRouting: { rules: [{ delay: 'two hours' }] },
            },
          ],
        },
        recipients: { signers: [signer(1, 'a@example.com', 1, {}), signer(2, 'b@example.com', 2, {})] },
        status: 'sent',
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.errorCode).toBe('INVALID_REQUEST_BODY');
    expect(r.json.message).toContain('0.02:00:00');
  });
});
