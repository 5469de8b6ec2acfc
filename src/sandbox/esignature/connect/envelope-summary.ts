import { recipientsObject, type EnvelopeRecipients } from '../../../envelope/index.js';
import type { EnvelopeRecord, RecipientRecord } from '../envelopes/repository.js';
import { recipientJson, recipientsJson } from '../envelopes/wire/envelope-json.js';

/**
 * How much of the recipients a Connect message carries, from the
 * destination's `eventData.includeData` (Swagger #/definitions/connectEventData,
 * on an account's connectCustomConfiguration and on an envelope's
 * eventNotification alike):
 *
 * - `statuses` (no `recipients` nor `tabs` asked): each recipient's id, name,
 *   email, routing order and status — what the sandbox always sent;
 * - `recipients`: each recipient as DocuSign answers it
 *   (#/definitions/EnvelopeRecipients, the shape of `GET …/recipients`), without tabs;
 * - `tabs`: the same with every recipient's tabs and their values, as
 *   `GET …/recipients?include_tabs=true` answers them (DocuSign's sample
 *   Connect message, spec/connect.schema-v2.json: `data.envelopeSummary.recipients.signers[].tabs`).
 *   Tabs live inside the recipients, so `tabs` brings the recipients with it.
 */
export type RecipientData = 'statuses' | 'recipients' | 'tabs';

/** The {@link RecipientData} an `eventData` object asks for (names compared ignoring case, as DocuSign's console writes them capitalised). */
export function recipientDataOf(eventData: unknown): RecipientData {
  const includeData =
    eventData !== null && typeof eventData === 'object'
      ? (eventData as { includeData?: unknown }).includeData
      : undefined;
  const asked = new Set(
    (Array.isArray(includeData) ? includeData : [])
      .filter((d): d is string => typeof d === 'string')
      .map((d) => d.toLowerCase()),
  );
  if (asked.has('tabs')) return 'tabs';
  if (asked.has('recipients')) return 'recipients';
  return 'statuses';
}

/**
 * `data.envelopeSummary` of a Connect message: the envelope's id, status,
 * subject and last change, and its recipients as much as `data` says.
 * Built when the event is queued, so the values are those of that moment
 * (an envelope-completed message carries the final values).
 */
export function connectEnvelopeSummary(
  envelope: EnvelopeRecord,
  recipients: RecipientRecord[],
  data: RecipientData,
): Record<string, unknown> {
  return {
    envelopeId: envelope.id,
    status: envelope.status,
    emailSubject: envelope.emailSubject,
    statusChangedDateTime: new Date(envelope.statusChangedAt).toISOString(),
    recipients: summaryRecipients(recipients, data),
  };
}

function summaryRecipients(recipients: RecipientRecord[], data: RecipientData): EnvelopeRecipients {
  if (data === 'tabs') return recipientsJson(recipients);
  if (data === 'recipients') {
    const all = recipientsJson(recipients);
    // The same answer without the tabs: recipientJson puts them on the kinds that have them.
    return {
      ...all,
      ...recipientsObject(
        recipients.map((r) => {
          const { tabs: _tabs, ...recipient } = recipientJson(r);
          return { kind: r.kind, recipient };
        }),
      ),
    };
  }
  return recipientsObject(
    recipients.map((r) => ({
      kind: r.kind,
      recipient: {
        recipientId: r.recipientId,
        name: r.name,
        email: r.email,
        routingOrder: String(r.routingOrder),
        status: r.status,
      },
    })),
  );
}
