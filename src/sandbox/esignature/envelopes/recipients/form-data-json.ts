import { isoTime } from '../../../platform/clock.js';
import type { EnvelopeRecord, RecipientRecord } from '../repository.js';
import { formDataItems } from '../tabs/tab-values.js';

const time = (ms: number | null) => (ms === null ? undefined : isoTime(ms));

/**
 * `#/definitions/envelopeFormData` (GET …/envelopes/{envelopeId}/form_data):
 * every recipient's tabs that hold a value, by label, all together in
 * `formData` and per recipient in `recipientFormData`, as DocuSign lists them.
 */
export function envelopeFormDataJson(envelope: EnvelopeRecord, recipients: readonly RecipientRecord[]) {
  const perRecipient = recipients.map((r) => ({ recipient: r, items: formDataItems(r.tabs) }));
  return {
    envelopeId: envelope.id,
    emailSubject: envelope.emailSubject,
    status: envelope.status,
    sentDateTime: time(envelope.sentAt),
    formData: perRecipient.flatMap(({ items }) => items),
    recipientFormData: perRecipient.map(({ recipient: r, items }) => ({
      recipientId: r.recipientId,
      name: r.name,
      email: r.email,
      formData: items,
      SentTime: time(r.sentAt),
      DeliveredTime: time(r.deliveredAt),
      SignedTime: time(r.signedAt),
      DeclinedTime: time(r.declinedAt),
    })),
  };
}
