import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp, type SandboxEvent, type Clock } from '../../src/sandbox/index.js';
import { isSignrunError } from '../../src/errors/signrun-error.js';
import { authHeader, documentEnvelope, makePdf, seedCredentials } from './helpers/api.js';

// Unit-level checks through inject(): the lifecycle, limits and seeds.
const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
async function app(
  options: Parameters<typeof buildSandboxApp>[0] = {},
  overrides: Parameters<typeof buildSandboxApp>[1] = {},
) {
  const a = await buildSandboxApp(options, overrides);
  apps.push(a);
  return a;
}
const accountPath = '/restapi/v2/accounts/5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11';
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function create(a: FastifyInstance, body: Record<string, unknown>) {
  const r = await a.inject({ method: 'POST', url: `${accountPath}/envelopes`, headers: authHeader(), payload: body });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().envelopeId as string;
}

describe('lifecycle', () => {
  it('routes by order: parallel within an order, next order after all of the previous completed; then completed', async () => {
    const a = await app();
    const pdf = await makePdf(1);
    const signer = (id: string, order: string) => ({
      name: `S${id}`,
      email: `s${id}@example.com`,
      recipientId: id,
      routingOrder: order,
      clientUserId: `c${id}`,
    });
    const envelopeId = await create(
      a,
      documentEnvelope(pdf, { recipients: { signers: [signer('1', '1'), signer('2', '1'), signer('3', '2')] } }),
    );
    const events: SandboxEvent[] = [];
    a.sandbox.events.on('event', (e) => events.push(e));
    const statuses = () => a.sandbox.envelopes.recipients(envelopeId).map((r) => r.status);
    expect(statuses()).toEqual(['sent', 'sent', 'created']);
    const { lifecycle } = a.sandbox;
    expect(() => lifecycle.markSigned(envelopeId, '3')).toThrow(expect.objectContaining({ reason: 'not-in-sequence' }));
    lifecycle.markDelivered(envelopeId, '1', { ip: '203.0.113.1', userAgent: 'ua' });
    expect(a.sandbox.envelopes.getById(envelopeId)?.status).toBe('delivered');
    lifecycle.markSigned(envelopeId, '1');
    expect(statuses()).toEqual(['completed', 'sent', 'created']);
    lifecycle.markSigned(envelopeId, '2', { ip: '203.0.113.2', userAgent: 'browser of signer 2' });
    expect(statuses()).toEqual(['completed', 'completed', 'sent']);
    // Recipient 3 is sent to by the service, not by signer 2's browser, whose signature set it going.
    const sentTo3 = a.sandbox.eventsTable
      .ofEnvelope(envelopeId)
      .find((e) => e.type === 'recipient-sent' && e.recipientId === '3');
    expect(sentTo3).toMatchObject({ ip: null, userAgent: null });
    expect(a.sandbox.eventsTable.ofEnvelope(envelopeId)).toContainEqual(
      expect.objectContaining({ type: 'recipient-completed', recipientId: '2', userAgent: 'browser of signer 2' }),
    );
    lifecycle.markSigned(envelopeId, '3');
    expect(a.sandbox.envelopes.getById(envelopeId)?.status).toBe('completed');
    expect(events.map((e) => `${e.type}${e.recipientId ? `:${e.recipientId}` : ''}`)).toEqual([
      'recipient-delivered:1',
      'envelope-delivered',
      'recipient-completed:1',
      'recipient-delivered:2',
      'recipient-completed:2',
      'recipient-sent:3',
      'recipient-delivered:3',
      'recipient-completed:3',
      'envelope-completed',
    ]);
    const stored = a.sandbox.eventsTable.ofEnvelope(envelopeId);
    expect(stored.find((e) => e.type === 'recipient-delivered' && e.recipientId === '1')).toMatchObject({
      ip: '203.0.113.1',
      userAgent: 'ua',
    });
    expect(() => lifecycle.markSigned(envelopeId, '1')).toThrow(expect.objectContaining({ reason: 'invalid-state' }));
  });

  it('a decline ends the envelope; a draft sends nothing until sent', async () => {
    const a = await app();
    const pdf = await makePdf(1);
    const envelopeId = await create(a, documentEnvelope(pdf));
    a.sandbox.lifecycle.markDeclined(envelopeId, '1', { reason: 'not me' });
    expect(a.sandbox.envelopes.getById(envelopeId)?.status).toBe('declined');
    expect(a.sandbox.envelopes.recipients(envelopeId)[0]).toMatchObject({
      status: 'declined',
      declinedReason: 'not me',
    });
    const draft = await create(a, documentEnvelope(pdf, { status: 'created' }));
    expect(a.sandbox.envelopes.recipients(draft).map((r) => r.status)).toEqual(['created', 'created']);
    expect(() => a.sandbox.lifecycle.markDelivered(draft, '1')).toThrow(
      expect.objectContaining({ reason: 'invalid-state' }),
    );
  });
});

describe('outbox', () => {
  it('notifies remote recipients when their turn comes, with their own subject and body when given', async () => {
    const a = await app();
    const pdf = await makePdf(1);
    const envelopeId = await create(
      a,
      documentEnvelope(pdf, {
        emailSubject: 'Envelope subject',
        emailBlurb: 'Envelope body',
        recipients: {
          signers: [
            { name: 'First', email: 'first@example.com', recipientId: '1', routingOrder: '1' },
            {
              name: 'Second',
              email: 'second@example.com',
              recipientId: '2',
              routingOrder: '2',
              emailNotification: {
                emailSubject: 'Sujet',
                emailBody: 'Corps <script>x</script>',
                supportedLanguage: 'fr',
              },
            },
          ],
        },
      }),
    );
    const sent = () => a.sandbox.outbox.list({ envelopeId }).map((m) => [m.kind, m.to, m.subject, m.body]);
    expect(sent()).toEqual([['envelope-notification', 'first@example.com', 'Envelope subject', 'Envelope body']]);
    a.sandbox.lifecycle.markSigned(envelopeId, '1');
    expect(sent()).toEqual([
      ['envelope-notification', 'first@example.com', 'Envelope subject', 'Envelope body'],
      ['envelope-notification', 'second@example.com', 'Sujet', 'Corps <script>x</script>'],
    ]);
    const html = await a.inject({ method: 'GET', url: '/sandbox/outbox?format=html' });
    expect(html.body).toContain('Sujet');
    // Message text is escaped in the HTML view.
    expect(html.body).not.toContain('<script>x');
    expect(html.body).toContain('&#60;script&#62;x');
  });
});

describe('limits', () => {
  it('answers 429 HOURLY_APIINVOCATION_LIMIT_EXCEEDED past the hourly limit, until the hour turns', async () => {
    let now = Date.parse('2026-11-20T10:59:00Z');
    const clock: Clock = { now: () => now };
    const a = await app({ hourlyLimit: 3 }, { clock });
    const get = () => a.inject({ method: 'GET', url: '/restapi/v2/login_information', headers: authHeader() });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await get();
      expect(r.statusCode).toBe(200);
      remaining.push(String(r.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await get();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errorCode).toBe('HOURLY_APIINVOCATION_LIMIT_EXCEEDED');
    expect(refused.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-20T11:00:00Z') / 1000));
    now = Date.parse('2026-11-20T11:00:01Z');
    expect((await get()).statusCode).toBe(200);
  });

  it('delays API answers by --latency', async () => {
    // The delay is held by the test: the answer must wait for it, and no time passes.
    const asked: number[] = [];
    let release = () => {};
    let delayed = () => {};
    const delayAsked = new Promise<void>((resolve) => (delayed = resolve));
    const a = await app(
      { latencyMs: 120 },
      {
        delay: (ms) => {
          asked.push(ms);
          delayed();
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
    );
    let answered = false;
    const answer = a
      .inject({ method: 'GET', url: '/restapi/v2/login_information', headers: authHeader() })
      .then((r) => ((answered = true), r));
    await delayAsked;
    await new Promise((resolve) => setImmediate(resolve)); // everything runnable has run
    expect(asked).toEqual([120]);
    expect(answered).toBe(false);
    release();
    expect((await answer).statusCode).toBe(200);
  });
});

describe('seeds', () => {
  it('loads a YAML seed: accounts, keys, distributor and templates replace the default', async () => {
    const a = await app({ seedFile: fixture('seed.yaml') });
    const custom = { username: 'admin@custom.test', password: 'custom-password', integratorKey: 'custom-key' };
    const r = await a.inject({ method: 'GET', url: '/restapi/v2/login_information', headers: authHeader(custom) });
    expect(r.statusCode).toBe(200);
    expect(r.json().loginAccounts[0]).toMatchObject({
      accountId: 'abcdef01-2222-3333-4444-555555555555',
      name: 'Custom Corp',
    });
    const t = await a.inject({
      method: 'GET',
      // The seed's upper-case id works in paths too: ids compare without case.
      url: '/restapi/v2/accounts/ABCDEF01-2222-3333-4444-555555555555/templates/22222222-3333-4444-5555-666666666666',
      headers: authHeader(custom),
    });
    expect(
      t
        .json()
        .recipients.signers.map((s: { roleName: string; routingOrder: string }) => `${s.roleName}@${s.routingOrder}`),
    ).toEqual(['signer@1', 'witness@2']);
    const old = await a.inject({
      method: 'GET',
      url: '/restapi/v2/login_information',
      headers: authHeader(seedCredentials),
    });
    expect(old.statusCode).toBe(401);
  });

  it('refuses a seed that does not match the schema with SR_SANDBOX_SEED at the line of the field', async () => {
    const error = await buildSandboxApp({ seedFile: fixture('bad-seed.yaml') }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSignrunError(error) && error.code).toBe('SR_SANDBOX_SEED');
    expect(isSignrunError(error) && error.location?.line).toBe(5);
  });
});
