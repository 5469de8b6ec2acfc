import type { CallOptions } from '../call-options.js';
import type {
  EnvelopeDefinition,
  EnvelopeRecipients,
  EnvelopeSummary,
  Envelope,
  EnvelopesInformation,
} from '../../envelope/wire.js';
import { recipientsObject } from '../../envelope/wire.js';
import type { RecipientViewRequest, ViewUrl } from '../wire-types.js';
import { answerJson, requiredString, type AccountScope } from './account-scope.js';
import { accountEndpointUrl as urlOf, esignatureEndpoints as endpoints } from './endpoints.js';

/** Parameters of {@link listEnvelopeStatusChanges}. */
export interface EnvelopeListQuery {
  /** ISO date: envelopes whose status changed since. Required by the API unless envelope or transaction ids are given. */
  fromDate?: string;
  /** `name=value` filter on envelope custom fields (Swagger `custom_field`). */
  customField?: { name: string; value: string };
  transactionIds?: string[];
  status?: string;
  /** Only these envelopes (Swagger `envelope_ids`): cheaper than a date range for a few known envelopes. */
  envelopeIds?: string[];
  /** e.g. `['recipients']`: each envelope comes with its recipients and their statuses, no call per envelope. */
  include?: string[];
  /** Position of the first envelope of the page (Swagger `start_position`). Default 0. */
  startPosition?: number;
  /** Envelopes per page (Swagger `count`; DocuSign: at most 1000). */
  count?: number;
}

/**
 * POST …/envelopes (4.5). Not idempotent on the wire: the retry layer
 * repeats it only after a 429 (provably refused) or a refused connection.
 */
export async function createEnvelope(
  account: AccountScope,
  definition: EnvelopeDefinition,
  options: CallOptions & {
    /**
     * The caller makes a duplicate harmless (a draft whose duplicates it
     * finds and deletes before sending): the retry layer may then repeat
     * the call after a failure the service may have acted on. Default false.
     */
    repeatable?: boolean;
  } = {},
): Promise<EnvelopeSummary> {
  const { repeatable, ...call } = options;
  const request = {
    method: endpoints.createEnvelope.method,
    url: urlOf(account.baseUrl, 'createEnvelope', {}),
    operation: 'createEnvelope',
  };
  const summary = await answerJson<EnvelopeSummary>(
    account.client,
    { ...request, body: definition, idempotent: repeatable === true },
    call,
  );
  requiredString(summary, 'envelopeId', request);
  return summary;
}

/** GET …/envelopes/{envelopeId}. */
export async function getEnvelope(
  account: AccountScope,
  envelopeId: string,
  options: CallOptions = {},
): Promise<Envelope> {
  const url = urlOf(account.baseUrl, 'getEnvelope', { envelopeId });
  return answerJson<Envelope>(account.client, { method: 'GET', url, operation: 'getEnvelope' }, options);
}

/** GET …/envelopes (status changes), with the custom-field filter. */
export async function listEnvelopeStatusChanges(
  account: AccountScope,
  query: EnvelopeListQuery,
  options: CallOptions = {},
): Promise<EnvelopesInformation> {
  const params = new URLSearchParams();
  if (query.fromDate) params.set('from_date', query.fromDate);
  if (query.customField) params.set('custom_field', `${query.customField.name}=${query.customField.value}`);
  if (query.transactionIds?.length) params.set('transaction_ids', query.transactionIds.join(','));
  if (query.status) params.set('status', query.status);
  if (query.envelopeIds?.length) params.set('envelope_ids', query.envelopeIds.join(','));
  if (query.include?.length) params.set('include', query.include.join(','));
  if (query.startPosition !== undefined) params.set('start_position', String(query.startPosition));
  if (query.count !== undefined) params.set('count', String(query.count));
  // The query always follows `?`, even when empty, as the client always sent it.
  const url = `${urlOf(account.baseUrl, 'listEnvelopes', {})}?${params.toString()}`;
  return answerJson<EnvelopesInformation>(account.client, { method: 'GET', url, operation: 'listEnvelopes' }, options);
}

/**
 * PUT …/envelopes/{envelopeId} with `status: sent` (Envelopes_PutEnvelope):
 * sends a draft. Safe to repeat: a second send is refused
 * (ENVELOPE_INVALID_STATUS), never a second envelope.
 */
export async function sendDraft(account: AccountScope, envelopeId: string, options: CallOptions = {}): Promise<void> {
  const url = urlOf(account.baseUrl, 'sendDraft', { envelopeId });
  await account.client.request(
    { method: 'PUT', url, body: { status: 'sent' }, operation: 'sendDraft', idempotent: true },
    options,
  );
}

/**
 * PUT …/folders/recyclebin (Folders_PutFolderById, #/definitions/foldersRequest):
 * moves drafts to the recycle bin, where DocuSign deletes them. Safe to repeat.
 */
export async function deleteDrafts(
  account: AccountScope,
  envelopeIds: string[],
  options: CallOptions = {},
): Promise<void> {
  const url = urlOf(account.baseUrl, 'deleteDrafts', { folderId: 'recyclebin' });
  await account.client.request(
    { method: 'PUT', url, body: { envelopeIds }, operation: 'deleteDrafts', idempotent: true },
    options,
  );
}

/** POST …/envelopes/{envelopeId}/custom_fields (CustomFields_PostCustomFields): adds text custom fields. */
export async function addTextCustomFields(
  account: AccountScope,
  envelopeId: string,
  fields: Array<{ name: string; value: string }>,
  options: CallOptions = {},
): Promise<void> {
  await account.client.request(
    {
      method: 'POST',
      url: urlOf(account.baseUrl, 'addCustomFields', { envelopeId }),
      body: { textCustomFields: fields.map((f) => ({ ...f, show: 'false' })) },
      operation: 'addCustomFields',
      // Adding the same field twice leaves the first value readable: safe to repeat.
      idempotent: true,
    },
    options,
  );
}

/**
 * PUT …/envelopes/{envelopeId} with `status: voided` (Swagger
 * Envelopes_PutEnvelope). Repeating it is harmless (a voided envelope
 * stays voided; the service refuses the second one), so it may be retried.
 */
export async function voidEnvelope(
  account: AccountScope,
  envelopeId: string,
  voidedReason: string,
  options: CallOptions = {},
): Promise<void> {
  await account.client.request(
    {
      method: 'PUT',
      url: urlOf(account.baseUrl, 'voidEnvelope', { envelopeId }),
      body: { status: 'voided', voidedReason },
      operation: 'voidEnvelope',
      idempotent: true,
    },
    options,
  );
}

/**
 * PUT …/envelopes/{envelopeId}/recipients?resend_envelope=true (Swagger
 * Recipients_PutRecipients): the service sends its notification again to
 * the recipients named (by recipientId) whose turn has come.
 */
export async function resendToRecipients(
  account: AccountScope,
  envelopeId: string,
  recipientIds: string[],
  options: CallOptions = {},
): Promise<void> {
  await account.client.request(
    {
      method: 'PUT',
      url: urlOf(account.baseUrl, 'resendEnvelope', { envelopeId }, new URLSearchParams({ resend_envelope: 'true' })),
      // Signers are the only recipients a resend names today; recipientsObject files them under their collection.
      body: recipientsObject(recipientIds.map((recipientId) => ({ kind: 'signer', recipient: { recipientId } }))),
      operation: 'resendEnvelope',
      idempotent: true,
    },
    options,
  );
}

/**
 * GET …/envelopes/{envelopeId}/recipients (4.6); with `includeTabs`,
 * `?include_tabs=true`: every recipient's tabs with their values, which is
 * what the signers entered once the envelope is completed.
 */
export async function listRecipients(
  account: AccountScope,
  envelopeId: string,
  options: CallOptions & { includeTabs?: boolean } = {},
): Promise<EnvelopeRecipients> {
  const { includeTabs, ...call } = options;
  const query = includeTabs ? new URLSearchParams({ include_tabs: 'true' }) : undefined;
  const url = urlOf(account.baseUrl, 'listRecipients', { envelopeId }, query);
  return answerJson<EnvelopeRecipients>(account.client, { method: 'GET', url, operation: 'listRecipients' }, call);
}

/**
 * POST …/envelopes/{envelopeId}/views/recipient (4.7; Swagger
 * `recipientViewRequest` → `EnvelopeViews`). Safe to repeat: it only
 * issues a new single-use address.
 */
export async function createRecipientView(
  account: AccountScope,
  envelopeId: string,
  viewRequest: RecipientViewRequest,
  options: CallOptions = {},
): Promise<ViewUrl> {
  const request = {
    method: 'POST' as const,
    url: urlOf(account.baseUrl, 'createRecipientView', { envelopeId }),
    operation: 'createRecipientView',
  };
  const view = await answerJson<ViewUrl>(account.client, { ...request, body: viewRequest, idempotent: true }, options);
  requiredString(view, 'url', request);
  return view;
}
