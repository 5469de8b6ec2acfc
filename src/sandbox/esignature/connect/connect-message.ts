/**
 * The events the sandbox notifies, named as DocuSign Connect names them in
 * its JSON (SIM) messages: https://developers.docusign.com/platform/webhooks/connect/
 * (`event` field). Swagger: `eventNotification.envelopeEvents` / `recipientEvents`.
 */
export const connectEventTypes = [
  'envelope-sent',
  'envelope-delivered',
  'envelope-completed',
  'envelope-declined',
  'envelope-voided',
  'recipient-sent',
  'recipient-delivered',
  'recipient-completed',
  'recipient-declined',
] as const;

/** One of {@link connectEventTypes}. */
export type ConnectEventType = (typeof connectEventTypes)[number];

/** What happened, as the sandbox core reports it. */
export interface ConnectEventFacts {
  type: ConnectEventType;
  accountId: string;
  envelopeId: string;
  /** Present for recipient events. */
  recipientId?: string;
  /** When it happened. */
  at: Date;
  /** Id of the user who sent the envelope, when known. */
  userId?: string;
  /** A snapshot of the envelope (status, emailSubject, recipients …), as GET envelope returns it. */
  envelopeSummary?: Record<string, unknown>;
  /** The account's Connect configuration that publishes it (its connectId); 0 for an envelope's own eventNotification. */
  configurationId?: number;
  /** The REST version the destination asked for ({@link connectApiVersionOf}); default v2. */
  apiVersion?: ConnectApiVersion;
}

/** The REST version a message speaks: its `apiVersion` and the version in its `uri`. */
export type ConnectApiVersion = 'v2' | 'v2.1';

/**
 * The version a destination's `eventData` asks for (Swagger
 * #/definitions/connectEventData `version`): DocuSign's JSON messages for
 * `restv2.1` say `"apiVersion": "v2.1"` and `"uri": "/restapi/v2.1/accounts/…"`
 * (its sample, spec/connect.schema-v2.json); anything else keeps v2, what
 * the sandbox always sent.
 */
export function connectApiVersionOf(eventData: unknown): ConnectApiVersion {
  const version =
    eventData !== null && typeof eventData === 'object' ? (eventData as { version?: unknown }).version : undefined;
  return typeof version === 'string' && version.toLowerCase() === 'restv2.1' ? 'v2.1' : 'v2';
}

/** The JSON body POSTed to `eventNotification.url`. */
export interface ConnectMessage {
  event: ConnectEventType;
  apiVersion: ConnectApiVersion;
  uri: string;
  retryCount: number;
  /** The publishing configuration's connectId; an envelope-level eventNotification has none: DocuSign sends 0 too. */
  configurationId: number;
  generatedDateTime: string;
  data: {
    accountId: string;
    userId?: string;
    envelopeId: string;
    recipientId?: string;
    envelopeSummary?: Record<string, unknown>;
  };
}

/** Builds the Connect JSON message for one event. */
export function connectMessage(facts: ConnectEventFacts): ConnectMessage {
  const data: ConnectMessage['data'] = { accountId: facts.accountId, envelopeId: facts.envelopeId };
  if (facts.userId !== undefined) data.userId = facts.userId;
  if (facts.recipientId !== undefined) data.recipientId = facts.recipientId;
  if (facts.envelopeSummary !== undefined) data.envelopeSummary = facts.envelopeSummary;
  const apiVersion = facts.apiVersion ?? 'v2';
  return {
    event: facts.type,
    apiVersion,
    uri: `/restapi/${apiVersion}/accounts/${facts.accountId}/envelopes/${facts.envelopeId}`,
    retryCount: 0,
    configurationId: facts.configurationId ?? 0,
    generatedDateTime: facts.at.toISOString(),
    data,
  };
}
