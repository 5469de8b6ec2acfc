import { inVersion, type ApiVersion } from '../api-version.js';

/** One endpoint of DocuSign's eSignature REST API, as its Swagger states it. */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /**
   * The Swagger's path without its version (`/v2.1/accounts/{accountId}/envelopes`
   * is `/accounts/{accountId}/envelopes`); `{name}` are path parameters.
   */
  path: string;
  /** The Swagger's operationId: where this endpoint's parameters and answers are described. */
  operationId: string;
  /** The answer's definition (`#/definitions/…` of the Swagger), when the call reads one. */
  answer?: string;
  /** The one version that has the endpoint, whatever the client's root says (v2.1 only: Bulk Send; v2 only: login_information). */
  version?: ApiVersion;
}

/**
 * The endpoints the client calls, keyed by the operation name its events and
 * errors carry. A checked table, as octokit keeps one: each row is DocuSign's
 * Swagger (test/fixtures/docusign/esignature.rest.swagger-v2.1.json, v2's for
 * `loginInformation`), and test/client/endpoints.test.ts fails when a row
 * names a method, path, operationId or answer the Swagger does not have.
 * Several operations may share one endpoint (sending and voiding are both
 * Envelopes_PutEnvelope): the name says what the client means by the call.
 */
export const esignatureEndpoints = {
  // Authentication (v2 only: v2.1 has no login_information)
  loginInformation: {
    method: 'GET',
    path: '/login_information',
    operationId: 'LoginInformation_GetLoginInformation',
    answer: 'loginInformation',
    version: 'v2',
  },
  // Accounts
  getAccount: {
    method: 'GET',
    path: '/accounts/{accountId}',
    operationId: 'Accounts_GetAccount',
    answer: 'accountInformation',
  },
  createAccount: {
    method: 'POST',
    path: '/accounts',
    operationId: 'Accounts_PostAccounts',
    answer: 'newAccountSummary',
  },
  deleteAccount: { method: 'DELETE', path: '/accounts/{accountId}', operationId: 'Accounts_DeleteAccount' },
  // Envelopes
  createEnvelope: {
    method: 'POST',
    path: '/accounts/{accountId}/envelopes',
    operationId: 'Envelopes_PostEnvelopes',
    answer: 'envelopeSummary',
  },
  getEnvelope: {
    method: 'GET',
    path: '/accounts/{accountId}/envelopes/{envelopeId}',
    operationId: 'Envelopes_GetEnvelope',
    answer: 'envelope',
  },
  listEnvelopes: {
    method: 'GET',
    path: '/accounts/{accountId}/envelopes',
    operationId: 'Envelopes_GetEnvelopes',
    answer: 'envelopesInformation',
  },
  sendDraft: {
    method: 'PUT',
    path: '/accounts/{accountId}/envelopes/{envelopeId}',
    operationId: 'Envelopes_PutEnvelope',
  },
  voidEnvelope: {
    method: 'PUT',
    path: '/accounts/{accountId}/envelopes/{envelopeId}',
    operationId: 'Envelopes_PutEnvelope',
  },
  addCustomFields: {
    method: 'POST',
    path: '/accounts/{accountId}/envelopes/{envelopeId}/custom_fields',
    operationId: 'CustomFields_PostCustomFields',
  },
  // Envelopes: recipients and views
  listRecipients: {
    method: 'GET',
    path: '/accounts/{accountId}/envelopes/{envelopeId}/recipients',
    operationId: 'Recipients_GetRecipients',
    answer: 'EnvelopeRecipients',
  },
  resendEnvelope: {
    method: 'PUT',
    path: '/accounts/{accountId}/envelopes/{envelopeId}/recipients',
    operationId: 'Recipients_PutRecipients',
  },
  createRecipientView: {
    method: 'POST',
    path: '/accounts/{accountId}/envelopes/{envelopeId}/views/recipient',
    operationId: 'Views_PostEnvelopeRecipientView',
    answer: 'EnvelopeViews',
  },
  // Envelopes: documents (documentId is also `certificate`, `archive`, `combined`)
  listDocuments: {
    method: 'GET',
    path: '/accounts/{accountId}/envelopes/{envelopeId}/documents',
    operationId: 'Documents_GetDocuments',
    answer: 'envelopeDocumentsResult',
  },
  downloadDocument: {
    method: 'GET',
    path: '/accounts/{accountId}/envelopes/{envelopeId}/documents/{documentId}',
    operationId: 'Documents_GetDocument',
  },
  // Folders (the recycle bin deletes drafts and templates)
  deleteDrafts: {
    method: 'PUT',
    path: '/accounts/{accountId}/folders/{folderId}',
    operationId: 'Folders_PutFolderById',
  },
  deleteTemplates: {
    method: 'PUT',
    path: '/accounts/{accountId}/folders/{folderId}',
    operationId: 'Folders_PutFolderById',
  },
  // Templates
  createTemplate: {
    method: 'POST',
    path: '/accounts/{accountId}/templates',
    operationId: 'Templates_PostTemplates',
    answer: 'templateSummary',
  },
  updateTemplate: {
    method: 'PUT',
    path: '/accounts/{accountId}/templates/{templateId}',
    operationId: 'Templates_PutTemplate',
  },
  listTemplates: {
    method: 'GET',
    path: '/accounts/{accountId}/templates',
    operationId: 'Templates_GetTemplates',
    answer: 'envelopeTemplateResults',
  },
  getTemplate: {
    method: 'GET',
    path: '/accounts/{accountId}/templates/{templateId}',
    operationId: 'Templates_GetTemplate',
    answer: 'envelopeTemplate',
  },
  downloadTemplateDocument: {
    method: 'GET',
    path: '/accounts/{accountId}/templates/{templateId}/documents/{documentId}',
    operationId: 'Documents_GetTemplateDocument',
  },
  // Bulk Send (v2.1 only: the Swagger's BulkSendV2*)
  createBulkSendList: {
    method: 'POST',
    path: '/accounts/{accountId}/bulk_send_lists',
    operationId: 'BulkSendV2CRUD_PostBulkSendList',
    answer: 'bulkSendingList',
    version: 'v2.1',
  },
  sendBulkSendList: {
    method: 'POST',
    path: '/accounts/{accountId}/bulk_send_lists/{bulkSendListId}/send',
    operationId: 'BulkSendV2Send_PostBulkSendRequest',
    answer: 'bulkSendResponse',
    version: 'v2.1',
  },
  getBulkSendBatch: {
    method: 'GET',
    path: '/accounts/{accountId}/bulk_send_batch/{bulkSendBatchId}',
    operationId: 'BulkSendV2Batch_GetBulkSendBatchStatus',
    answer: 'bulkSendBatchStatus',
    version: 'v2.1',
  },
  listBulkSendBatches: {
    method: 'GET',
    path: '/accounts/{accountId}/bulk_send_batch',
    operationId: 'BulkSendV2Batch_GetBulkSendBatches',
    answer: 'bulkSendBatchSummaries',
    version: 'v2.1',
  },
} as const satisfies Record<string, Endpoint>;

/** The name of an operation of the table. */
export type EsignatureOperation = keyof typeof esignatureEndpoints;

/** The `{name}` parameters of a path, as an object type: `'/a/{b}/c/{d}'` → `{ b: string; d: string }`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name | keyof PathParams<Rest>]: string }
  : Record<never, string>;

/** The path parameters of an operation, without the account (the account's base URL carries it). */
export type OperationParams<O extends EsignatureOperation> = Omit<
  PathParams<(typeof esignatureEndpoints)[O]['path']>,
  'accountId'
>;

/**
 * The address of an operation under an account's base URL
 * (`…/restapi/v2.1/accounts/{accountId}`): its path after the account, each
 * parameter URL-encoded, and the query when one is given; in the
 * endpoint's own version when it has only one (Bulk Send: v2.1).
 */
export function accountEndpointUrl<O extends EsignatureOperation>(
  accountBaseUrl: string,
  operation: O,
  params: OperationParams<O>,
  query?: URLSearchParams,
): string {
  const endpoint: Endpoint = esignatureEndpoints[operation];
  const base = endpoint.version ? inVersion(accountBaseUrl, endpoint.version) : accountBaseUrl;
  const path = endpoint.path.replace(/^\/accounts\/\{accountId\}/, '');
  const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = (params as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`${operation}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const search = query?.toString();
  return `${base}${filled}${search ? `?${search}` : ''}`;
}
