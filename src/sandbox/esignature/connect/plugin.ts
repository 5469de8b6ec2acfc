import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiErrors } from '../../platform/http/api-error.js';
import type { SandboxEvent } from '../envelopes/events.js';
import type { EnvelopeRecord } from '../envelopes/repository.js';
import { connectApiVersionOf, connectMessage, type ConnectApiVersion, type ConnectMessage } from './connect-message.js';
import { ConnectWorker } from './connect-worker.js';
import { ConnectQueue, type ConnectFailureRow } from './delivery-queue.js';
import { EventCursor } from './event-cursor.js';
import { wantsEvent } from './event-filter.js';
import { configurationWants, connectConfigurations, type ConnectConfiguration } from './connect-configurations.js';
import { ConnectHmacKeys } from './hmac-keys.js';
import { connectSignature } from '../../../envelope/connect-signature.js';
import { defaultConnectRetryPolicy } from './retry-timing.js';
import { publicOrigin } from '../../platform/http/public-origin.js';
import { connectEnvelopeSummary, recipientDataOf, type RecipientData } from './envelope-summary.js';

/**
 * Event notifications (DocuSign Connect-style webhooks) and the
 * `…/connect/failures` endpoint. app.ts registers it once the services are
 * decorated on the app.
 *
 * Each envelope/recipient event of an envelope that carries
 * `eventNotification.url`, and of an account whose Connect configurations
 * (connect-configurations.ts, `…/connect`) publish it, is queued (table connect_deliveries) as a signed
 * JSON message; a worker POSTs it to the address (loopback and
 * `connectAllowedHosts` only), retrying with exponential backoff; the queue
 * survives restarts. The worker stops when the app closes.
 */
/** Events read per transaction of a catch-up. */
const drainBatch = 500;

// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const connectPlugin: FastifyPluginAsync = async (app) => {
  const services = app.sandbox;
  const queue = new ConnectQueue(services.db);
  const keys = new ConnectHmacKeys(services.db);
  const worker = new ConnectWorker({
    queue,
    policy: { ...defaultConnectRetryPolicy, baseDelayMs: services.config.connectRetryBaseMs },
    allowedHosts: services.config.connectAllowedHosts,
    // retryCount says which attempt this is (Connect's field); the signature
    // is made over exactly the bytes sent.
    prepare: (d) => {
      const message = JSON.parse(d.body) as ConnectMessage;
      const body = JSON.stringify({ ...message, retryCount: d.attempts });
      // A delivery queued unsigned (a configuration without includeHMAC) stays unsigned.
      return {
        body,
        signature: d.signature === undefined ? undefined : connectSignature(body, keys.keyFor(d.accountId)),
      };
    },
    // Heard by whoever waits for a delivery to settle (tests), instead of polling the queue.
    onAttempt: (attempt) => services.events.emit('connect-attempt', attempt),
  });

  const cursor = new EventCursor(services.db);
  const configurations = connectConfigurations(services.db);

  // One catch-up reads each envelope once, however many of its events it handles (a creation has three).
  let seen = new Map<string, EnvelopeRecord | undefined>();
  let enqueued = 0;
  const envelopeOf = (id: string): EnvelopeRecord | undefined => {
    if (!seen.has(id)) seen.set(id, services.envelopes.getById(id));
    return seen.get(id);
  };

  // One catch-up asks once per envelope whether it carries an eventNotification.
  let notificationSeen = new Map<string, boolean>();
  const hasNotification = (id: string): boolean => {
    let has = notificationSeen.get(id);
    if (has === undefined) {
      has = services.envelopes.hasEventNotification(id);
      notificationSeen.set(id, has);
    }
    return has;
  };

  // One catch-up reads each account's Connect configurations once.
  let configsSeen = new Map<string, ConnectConfiguration[]>();
  const configsOf = (accountId: string): ConnectConfiguration[] => {
    let configs = configsSeen.get(accountId);
    if (configs === undefined) {
      configs = configurations.list(accountId);
      configsSeen.set(accountId, configs);
    }
    return configs;
  };

  const queueEvent = (event: SandboxEvent): void => {
    // Most envelopes go nowhere (no eventNotification, no configuration of the account): one column says so.
    if (configsOf(event.accountId).length === 0 && !hasNotification(event.envelopeId)) return;
    const envelope = envelopeOf(event.envelopeId);
    if (envelope === undefined) return;
    const type = event.type;
    // Where it goes: the envelope's own eventNotification (always signed, as
    // before), and every configuration of the account that publishes it
    // (signed when it says includeHMAC).
    const destinations: {
      url: string;
      configurationId: number;
      sign: boolean;
      data: RecipientData;
      apiVersion: ConnectApiVersion;
    }[] = [];
    const notification = envelope.eventNotification;
    const url = notification?.['url'];
    if (notification && typeof url === 'string' && url !== '' && wantsEvent(notification, type))
      destinations.push({
        url,
        configurationId: 0,
        sign: true,
        data: recipientDataOf(notification['eventData']),
        apiVersion: connectApiVersionOf(notification['eventData']),
      });
    for (const config of configsOf(envelope.accountId)) {
      if (!configurationWants(config, envelope.senderUserId, type)) continue;
      destinations.push({
        url: String(config['urlToPublishTo']),
        configurationId: Number(config.connectId),
        sign: config['includeHMAC'] === 'true',
        // What each destination's eventData.includeData asks for (recipients, their tabs): envelope-summary.ts.
        data: recipientDataOf(config['eventData']),
        apiVersion: connectApiVersionOf(config['eventData']),
      });
    }
    if (destinations.length === 0) return;
    const recipients = services.envelopes.recipients(envelope.id);
    const summaries = new Map<RecipientData, Record<string, unknown>>();
    const summaryFor = (data: RecipientData) => {
      let summary = summaries.get(data);
      if (summary === undefined) {
        summary = connectEnvelopeSummary(envelope, recipients, data);
        summaries.set(data, summary);
      }
      return summary;
    };
    const facts = {
      type,
      accountId: envelope.accountId,
      envelopeId: envelope.id,
      ...(event.recipientId === undefined ? {} : { recipientId: event.recipientId }),
      at: new Date(event.at),
      userId: envelope.senderUserId,
    };
    for (const destination of destinations) {
      const body = JSON.stringify(
        connectMessage({
          ...facts,
          envelopeSummary: summaryFor(destination.data),
          configurationId: destination.configurationId,
          apiVersion: destination.apiVersion,
        }),
      );
      queue.enqueue(
        {
          accountId: envelope.accountId,
          envelopeId: envelope.id,
          event: type,
          url: destination.url,
          body,
          ...(destination.sign ? { signature: connectSignature(body, keys.keyFor(envelope.accountId)) } : {}),
          envelopeStatus: envelope.status,
        },
        Date.now(),
      );
      enqueued++;
    }
  };

  /** Queues every event after the cursor and moves the cursor, in one transaction (a savepoint inside another); returns how many deliveries it queued. */
  const drainAll = (): number => {
    seen = new Map();
    configsSeen = new Map();
    notificationSeen = new Map();
    enqueued = 0;
    // A drain that returns less than a full batch has read up to the last event.
    while (cursor.drain(queueEvent, drainBatch) === drainBatch);
    seen = new Map();
    notificationSeen = new Map();
    return enqueued;
  };
  // The emitter only wakes us: the events come from the table (see EventCursor).
  const catchUp = (): void => {
    // The worker looks at the queue only when something was put in it.
    if (drainAll() > 0) worker.wake();
  };

  // The lifecycle's own changes are caught up inside their transaction, before COMMIT: the events,
  // their deliveries and the cursor in one commit (exactly-once as before: the cursor moves with the
  // deliveries it queued), instead of a second write transaction after every group commit. Those
  // events, emitted after the commit, need no catch-up of their own; any other (a drain that failed
  // here, a change made outside the lifecycle) still wakes the catch-up below.
  const caughtUpInCommit = new WeakSet<SandboxEvent>();
  let wakeAfterCommit = false;
  const stopCatchingUpInCommit = services.lifecycle.beforeCommit((events) => {
    try {
      if (drainAll() > 0) wakeAfterCommit = true;
    } catch {
      // The drain's savepoint rolled back and the cursor did not move: the catch-up after the commit tries again.
      return;
    }
    for (const event of events) caughtUpInCommit.add(event);
  });

  // Events come in bursts (three per creation, a group commit's creations at
  // once): one catch-up after the burst, not a read transaction per event.
  let catchUpScheduled = false;
  const onEvent = (event: SandboxEvent): void => {
    if (caughtUpInCommit.has(event)) {
      // Woken only now that the deliveries queued before COMMIT are committed.
      if (wakeAfterCommit) {
        wakeAfterCommit = false;
        worker.wake();
      }
      return;
    }
    if (catchUpScheduled) return;
    catchUpScheduled = true;
    queueMicrotask(() => {
      catchUpScheduled = false;
      try {
        catchUp();
      } catch {
        // Nothing moved (the drain's transaction rolled back): the next event, or the next start, catches up.
      }
    });
  };
  services.events.on('event', onEvent);
  app.addHook('onReady', async () => {
    catchUp();
    worker.start();
  });
  app.addHook('onClose', async () => {
    services.events.off('event', onEvent);
    stopCatchingUpInCommit();
    await worker.stop();
  });

  // GET …/connect/failures (ConnectFailures_GetConnectLogs → #/definitions/connectLogs).
  for (const prefix of ['/restapi/v2', '/restapi/v2.1']) {
    app.get<{ Params: { accountId: string }; Querystring: { from_date?: string; to_date?: string } }>(
      `${prefix}/accounts/:accountId/connect/failures`,
      async (request) => {
        const accountId = await authorisedAccount(request);
        const from = request.query.from_date ? Date.parse(request.query.from_date) : undefined;
        const to = request.query.to_date ? Date.parse(request.query.to_date) : undefined;
        if ((from !== undefined && Number.isNaN(from)) || (to !== undefined && Number.isNaN(to))) {
          throw apiErrors.invalidParameter("'from_date' and 'to_date' must be dates.");
        }
        const failures = queue.failures(accountId, {
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
        });
        const base = `${publicOrigin(app)}${prefix}/accounts/${accountId}/connect`;
        return {
          type: 'type_owner',
          totalRecords: String(failures.length),
          failures: failures.map((f) => connectLogOf(f, base)),
        };
      },
    );
  }

  async function authorisedAccount(request: FastifyRequest<{ Params: { accountId: string } }>): Promise<string> {
    const principal = await services.auth.authenticate(request.headers);
    const accountId = request.params.accountId.toLowerCase();
    if (accountId !== principal.account.id) throw apiErrors.userLacksMembership();
    return accountId;
  }
};

/** One failure as `#/definitions/connectLog` (all strings on the wire, as DocuSign sends them). */
function connectLogOf(f: ConnectFailureRow, base: string): Record<string, string> {
  return {
    failureId: f.failureId,
    accountId: f.accountId,
    envelopeId: f.envelopeId,
    configUrl: f.url,
    connectId: String(configurationIdOf(f.body)),
    created: new Date(f.createdAt).toISOString(),
    lastTry: new Date(f.lastTryAt).toISOString(),
    retryCount: String(f.attempts),
    error: f.lastError,
    status: f.envelopeStatus ?? '',
    failureUri: `${base}/failures/${f.failureId}`,
    retryUri: `${base}/envelopes/${f.envelopeId}/retry_queue`,
  };
}

/** The configuration a queued message is for (its `configurationId`: a connectId, 0 for an envelope's own eventNotification). */
function configurationIdOf(body: string): number {
  const id = (JSON.parse(body) as Partial<ConnectMessage>).configurationId;
  return typeof id === 'number' ? id : 0;
}
