import { recipientsByKind } from '../../../../envelope/index.js';
import { mustAct } from '../routing.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors } from '../../../platform/http/api-error.js';
import { lenientObject } from '../../../platform/http/lenient.js';
import type { EnvelopeRecord, RecipientRecord } from '../repository.js';
import { dueNotifications, nextDueAt, settingsOf, type NotificationSettings } from './schedule.js';
import { isMovable } from './movable-clock.js';
import { nextDueTracker } from './next-due.js';

/** DocuSign's voidedReason for an envelope that expired. */
export const expiredReason = 'Envelope has expired.';

/**
 * Reminders, expiration and resends (issue 12), kept apart from the
 * envelope lifecycle: the `notification` object of a created envelope is
 * stored in its own table; whatever is due at the sandbox's clock — a
 * reminder to each recipient whose turn has come and who has not signed,
 * a warning before expiry, the expiry itself (the envelope voided with
 * DocuSign's reason) — happens before each API call and each read of the
 * outbox, so a test that moves the clock (`POST /sandbox/clock` with a
 * movable clock, or its own clock object) sees it at once.
 * `PUT …/recipients?resend_envelope=true` sends the notification again.
 */
export const notificationsPlugin: FastifyPluginAsync = async (app) => {
  const { db, clock, envelopes, outbox, lifecycle } = app.sandbox;
  db.exec(`CREATE TABLE IF NOT EXISTS envelope_notifications (
    envelope_id TEXT PRIMARY KEY,
    settings_json TEXT NOT NULL,
    reminders_sent INTEGER NOT NULL DEFAULT 0,
    warned INTEGER NOT NULL DEFAULT 0
  )`);
  const insert = db.prepare(
    'INSERT OR REPLACE INTO envelope_notifications (envelope_id, settings_json) VALUES (@envelopeId, @settings)',
  );
  const open = db.prepare(
    `SELECT n.envelope_id AS envelopeId, n.settings_json AS settings, n.reminders_sent AS remindersSent, n.warned AS warned
       FROM envelope_notifications n JOIN envelopes e ON e.id = n.envelope_id
      WHERE e.status IN ('sent', 'delivered')`,
  );
  const update = db.prepare(
    'UPDATE envelope_notifications SET reminders_sent = @remindersSent, warned = @warned WHERE envelope_id = @envelopeId',
  );

  const links = (envelope: EnvelopeRecord, recipient: RecipientRecord) =>
    app.sandbox.notificationLinks(envelope, recipient);
  /**
   * One message to each recipient whose turn has come, who has not acted, and who gets email (not embedded).
   * A carbon copy is never reminded: it has nothing to do.
   */
  const notify = (envelope: EnvelopeRecord, kind: string, subject: string, only?: Set<string>) => {
    for (const r of envelopes.recipients(envelope.id)) {
      if (r.status !== 'sent' && r.status !== 'delivered') continue;
      if (!mustAct(r)) continue;
      if (r.clientUserId !== null) continue;
      if (only && !only.has(r.recipientId)) continue;
      outbox.add({
        kind,
        to: r.email,
        toName: r.name,
        subject,
        body: r.emailBody ?? envelope.emailBlurb,
        links: links(envelope, r),
        accountId: envelope.accountId,
        envelopeId: envelope.id,
        recipientId: r.recipientId,
      });
    }
  };

  // Looking at every open envelope before every request only when something can be due (next-due.ts).
  const nextDue = nextDueTracker(db);
  const onEvent = (event: { type: string; envelopeId: string }) => {
    if (event.type === 'envelope-sent') nextDue.takeIn(event.envelopeId);
  };
  app.sandbox.events.on('event', onEvent);
  app.addHook('onClose', async () => {
    app.sandbox.events.off('event', onEvent);
  });

  let running = false;
  /** Sends what is due at the clock's time: reminders, warnings, expiries. */
  const processDue = () => {
    if (running) return;
    const now = clock.now();
    const version = nextDue.mustLook(now);
    if (version === undefined) return;
    running = true;
    try {
      let earliest = Infinity;
      for (const row of open.all() as Array<{
        envelopeId: string;
        settings: string;
        remindersSent: number;
        warned: number;
      }>) {
        const envelope = envelopes.getById(row.envelopeId);
        if (!envelope || envelope.sentAt === null) continue;
        const settings = JSON.parse(row.settings) as NotificationSettings;
        const due = dueNotifications(settings, envelope.sentAt, now, {
          remindersSent: row.remindersSent,
          warned: row.warned === 1,
        });
        for (let i = 0; i < due.reminders; i += 1) notify(envelope, 'reminder', `Reminder: ${envelope.emailSubject}`);
        if (due.warn) notify(envelope, 'expiration-warning', `Expires soon: ${envelope.emailSubject}`);
        if (due.expire) lifecycle.void(envelope.id, expiredReason);
        const done = { remindersSent: row.remindersSent + due.reminders, warned: row.warned === 1 || due.warn };
        update.run({ envelopeId: row.envelopeId, remindersSent: done.remindersSent, warned: done.warned ? 1 : 0 });
        if (!due.expire) earliest = Math.min(earliest, nextDueAt(settings, envelope.sentAt, done));
      }
      nextDue.looked(version, earliest);
    } catch (error) {
      nextDue.forget(); // what was left undone is looked at again by the next request
      throw error;
    } finally {
      running = false;
    }
  };

  // Every request: callback style, not async (a promise and a microtask turn each).
  app.addHook('onRequest', (_request, _reply, done) => {
    processDue();
    done();
  });

  // A created envelope's notification object, stored once the creation answered 201.
  const keepNotification = (request: FastifyRequest, reply: FastifyReply, payload: unknown): void => {
    if (request.method !== 'POST' || reply.statusCode !== 201) return;
    if (!/\/accounts\/:accountId\/envelopes$/.test(request.routeOptions.url ?? '')) return;
    const body = lenientObject(request.body, 'envelope');
    const settings = settingsOf(body?.['notification']);
    if (!settings || typeof payload !== 'string') return;
    const envelopeId = (JSON.parse(payload) as { envelopeId?: string }).envelopeId;
    if (envelopeId) {
      insert.run({ envelopeId, settings: JSON.stringify(settings) });
      nextDue.takeIn(envelopeId);
    }
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    try {
      keepNotification(request, reply, payload);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, payload);
  });

  for (const prefix of ['/restapi/v2', '/restapi/v2.1']) {
    // Recipients_PutRecipients with resend_envelope=true: the notification again, to the recipients named (of any kind).
    app.put<{
      Params: { accountId: string; envelopeId: string };
      Querystring: { resend_envelope?: string };
    }>(`${prefix}/accounts/:accountId/envelopes/:envelopeId/recipients`, async (request) => {
      const principal = await app.sandbox.auth.authenticate(request.headers);
      if (request.params.accountId.toLowerCase() !== principal.account.id) throw apiErrors.userLacksMembership();
      const envelope = envelopes.getById(request.params.envelopeId.toLowerCase());
      if (!envelope || envelope.accountId !== principal.account.id) throw apiErrors.envelopeNotFound();
      const named = recipientsByKind(lenientObject(request.body, 'recipients'));
      const ids = new Set(named.map(({ recipient }) => String(recipient.recipientId ?? '')));
      if (request.query.resend_envelope === 'true' && (envelope.status === 'sent' || envelope.status === 'delivered'))
        notify(envelope, 'envelope-notification', envelope.emailSubject, ids);
      return { recipientUpdateResults: [...ids].map((recipientId) => ({ recipientId })) };
    });
  }

  // Sandbox-only: the clock, and moving it forward when it can be moved.
  app.get('/sandbox/clock', async () => ({ now: new Date(clock.now()).toISOString(), movable: isMovable(clock) }));
  app.post<{ Body: { advanceSeconds?: number } }>('/sandbox/clock', async (request, reply) => {
    if (!isMovable(clock))
      return reply.status(409).send({ error: 'this sandbox runs on the real clock; start it with a movable clock' });
    clock.advance(Number(request.body?.advanceSeconds ?? 0) * 1000);
    processDue();
    return { now: new Date(clock.now()).toISOString() };
  });
};

// Its hooks apply to the whole app (the API routes, the outbox), not only to its own routes: not encapsulated.
(notificationsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
