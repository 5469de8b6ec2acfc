// One copy of a Bulk Send list (DocuSign's `#/definitions/bulkSendingCopy`),
// defined once for both sides: the runner writes copies
// (src/runner/bulk-send/bulk-send-list.ts) and the sandbox reads and stores them
// (src/sandbox/esignature/bulk-send/bulk-send-list.ts). A field added here is one both know.

/** The text fields of a copy's recipient (`#/definitions/bulkSendingCopyRecipient`) that signrun models. */
export const bulkCopyRecipientFields = [
  'recipientId',
  'roleName',
  'name',
  'email',
  'clientUserId',
  'accessCode',
  'hostName',
  'hostEmail',
  'signerName',
] as const;
export type BulkCopyRecipientField = (typeof bulkCopyRecipientFields)[number];

/** A labelled tab's value in a copy (`#/definitions/bulkSendingCopyTab`). */
export interface BulkSendingCopyTab {
  tabLabel: string;
  initialValue: string;
}

/**
 * A recipient of one copy, named by `recipientId` (a model's recipient) or
 * `roleName` (a template's role); an in-person signer through its host.
 */
export type BulkSendingCopyRecipient = { [F in BulkCopyRecipientField]?: string } & { tabs?: BulkSendingCopyTab[] };

/** One envelope of a bulk send list: its recipients, custom field values (signrun's identity and digest), subject and blurb. */
export interface BulkSendingCopy {
  recipients: BulkSendingCopyRecipient[];
  customFields: Array<{ name: string; value: string }>;
  emailSubject?: string;
  emailBlurb?: string;
}
