import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp } from '../../src/sandbox/app.js';
import { movableClock } from '../../src/sandbox/esignature/envelopes/notifications/movable-clock.js';
import {
  dueNotifications,
  nextDueAt,
  type NotificationSettings,
} from '../../src/sandbox/esignature/envelopes/notifications/schedule.js';

// Reminders and expiries are looked for before every request; the sandbox
// looks at the open envelopes only when something can be due (nextDueAt), so
// a campaign with reminders does not make every request read all of them.

const day = 86_400_000;
const account = '5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11';
const auth = JSON.stringify({
  Username: 'sandbox@signrun.test',
  Password: 'sandbox-password',
  IntegratorKey: 'sandbox-integrator-key',
});
const headers = { 'x-docusign-authentication': auth, host: '127.0.0.1' };
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type /Page>>endobj\n%%EOF').toString('base64');

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('nextDueAt', () => {
  it('is the first time dueNotifications has something to do, for every schedule and state', () => {
    const grid: NotificationSettings[] = [];
    for (const reminderEnabled of [false, true])
      for (const reminderDelayDays of [0, 1, 2])
        for (const reminderFrequencyDays of [0, 1, 3])
          for (const expireEnabled of [false, true])
            for (const expireAfterDays of [1, 5])
              for (const expireWarnDays of [0, 1, 7])
                grid.push({
                  reminderEnabled,
                  reminderDelayDays,
                  reminderFrequencyDays,
                  expireEnabled,
                  expireAfterDays,
                  expireWarnDays,
                });
    const sentAt = 1_000 * day;
    const step = day / 4;
    const wrong: string[] = [];
    let checked = 0;
    for (const settings of grid) {
      // Every state the sandbox can be in: reminders sent and warning given up to some time.
      for (let upTo = sentAt; upTo <= sentAt + 4 * day; upTo += step) {
        const done = dueNotifications(settings, sentAt, upTo, { remindersSent: 0, warned: false });
        if (done.expire) continue; // expired: voided, no longer open
        const state = { remindersSent: done.reminders, warned: done.warn };
        const next = nextDueAt(settings, sentAt, state);
        const somethingAt = (t: number) => {
          const due = dueNotifications(settings, sentAt, t, state);
          return due.reminders > 0 || due.warn || due.expire;
        };
        for (let t = upTo; t < Math.min(next, upTo + 8 * day); t += step)
          if (somethingAt(t))
            wrong.push(`${JSON.stringify(settings)} ${JSON.stringify(state)}: due at ${t} before ${next}`);
        if (Number.isFinite(next) && !somethingAt(Math.max(next, upTo)))
          wrong.push(`${JSON.stringify(settings)} ${JSON.stringify(state)}: nothing due at ${next}`);
        checked++;
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('due notifications, looked for before each request', () => {
  async function sandbox() {
    const clock = movableClock();
    const app = await buildSandboxApp({}, { clock });
    apps.push(app);
    return { app, clock };
  }
  const create = async (app: FastifyInstance, status: 'sent' | 'created', reminderDelay: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/restapi/v2.1/accounts/${account}/envelopes`,
      headers,
      payload: {
        emailSubject: 'Please sign',
        status,
        documents: [{ documentId: '1', name: 'a.pdf', documentBase64: pdf }],
        recipients: { signers: [{ name: 'Remote Signer', email: 'remote@example.com', recipientId: '1' }] },
        notification: {
          useAccountDefaults: 'false',
          reminders: { reminderEnabled: 'true', reminderDelay, reminderFrequency: '1' },
          expirations: { expireEnabled: 'true', expireAfter: '10', expireWarn: '2' },
        },
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ envelopeId: string }>().envelopeId;
  };
  const kinds = async (app: FastifyInstance, envelopeId: string) =>
    (await app.inject({ method: 'GET', url: `/sandbox/outbox?format=json&envelopeId=${envelopeId}`, headers }))
      .json<{ messages: Array<{ kind: string }> }>()
      .messages.map((m) => m.kind);
  const listing = async (app: FastifyInstance) =>
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/restapi/v2.1/accounts/${account}/envelopes?from_date=2099-01-01`,
          headers,
        })
      ).statusCode,
    ).toBe(200);

  it('reads the open envelopes only when something can be due, and still sends each reminder on time', async () => {
    const { app, clock } = await sandbox();
    // Counts the look at every open envelope: the plugin's query over all notification rows.
    const statements = new Map<string, number>();
    const proto = Object.getPrototypeOf(app.sandbox.db.prepare('SELECT 1')) as {
      all: (...args: unknown[]) => unknown;
      source: string;
    };
    const all = proto.all;
    proto.all = function (this: { source: string }, ...args: unknown[]) {
      if (
        /FROM envelope_notifications n JOIN envelopes e/.test(this.source) &&
        !/n\.envelope_id = \?/.test(this.source)
      )
        statements.set('look', (statements.get('look') ?? 0) + 1);
      return all.apply(this, args);
    };
    try {
      const sent = [];
      for (let i = 0; i < 5; i++) sent.push(await create(app, 'sent', '3'));
      const draft = await create(app, 'created', '1');
      statements.clear();
      for (let i = 0; i < 20; i++) await listing(app);
      expect(statements.get('look') ?? 0).toBe(0);

      // The draft, sent later, is taken in at its sending: its reminder falls due before anything of the others.
      clock.advance(day / 2);
      const put = await app.inject({
        method: 'PUT',
        url: `/restapi/v2.1/accounts/${account}/envelopes/${draft}`,
        headers,
        payload: { status: 'sent' },
      });
      expect(put.statusCode).toBe(200);
      clock.advance(day + 60_000);
      await listing(app);
      expect(await kinds(app, draft)).toContain('reminder');
      for (const id of sent) expect(await kinds(app, id)).not.toContain('reminder');

      clock.advance(2 * day); // three days after the first five were sent: their first reminder
      await listing(app);
      for (const id of sent) expect(await kinds(app, id)).toContain('reminder');
      statements.clear();
      for (let i = 0; i < 10; i++) await listing(app);
      expect(statements.get('look') ?? 0).toBe(0);
    } finally {
      proto.all = all;
    }
  });
});
