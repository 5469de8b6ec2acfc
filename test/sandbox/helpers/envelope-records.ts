import type { CustomFieldRecord, EnvelopeRecord } from '../../../src/sandbox/esignature/envelopes/repository.js';

/** A sent envelope's row as the repository stores it, its times all `at`: for tests that fill the database directly. */
export function sentEnvelopeRecord(id: string, accountId: string, at: number): EnvelopeRecord {
  return {
    id,
    accountId,
    senderUserId: 'u',
    status: 'sent',
    emailSubject: 's',
    emailBlurb: '',
    templateId: null,
    transactionId: null,
    eventNotification: null,
    createdAt: at,
    sentAt: at,
    deliveredAt: null,
    completedAt: null,
    declinedAt: null,
    voidedAt: null,
    voidedReason: null,
    statusChangedAt: at,
  };
}

/** A hidden text custom field, as the runner sets its identity and job fields. */
export const textCustomField = (name: string, value: string): CustomFieldRecord => ({
  kind: 'text',
  fieldId: '1',
  name,
  value,
  show: 'false',
  required: 'false',
  listItems: null,
});
