import type { BulkSendingCopy } from '../envelope/bulk-send-copy.js';
/**
 * Wire shapes of the eSignature REST API, v2.1 and v2, that are the client's
 * alone (errors, logins, accounts, views); the envelope's own shapes,
 * shared with the sandbox, are in src/envelope/wire.ts. Named after the
 * Swagger definitions they follow (test/fixtures/docusign/esignature.rest.swagger-v2.1.json
 * and …-v2.json, `#/definitions/<name>`). Where the versions differ the
 * field says so and the client reads both. Only the fields signrun sends or
 * reads are listed; every string id stays a string, as on the wire.
 */

/** `#/definitions/errorDetails`: the body of every 4xx/5xx answer. */
export interface ErrorDetails {
  errorCode?: string;
  message?: string;
}

/** `#/definitions/loginAccount`. */
export interface LoginAccount {
  accountId: string;
  /** e.g. https://demo.docusign.net/restapi/v2/accounts/123: the {account} address of service-api.md 4.1. */
  baseUrl?: string;
  name?: string;
  isDefault?: string;
  userId?: string;
  userName?: string;
  email?: string;
}

/** `#/definitions/loginInformation` (GET /v2/login_information). */
export interface LoginInformation {
  loginAccounts?: LoginAccount[];
}

/** `#/definitions/recipientViewRequest` (POST …/views/recipient). */
export interface RecipientViewRequest {
  returnUrl: string;
  authenticationMethod: string;
  clientUserId: string;
  email?: string;
  userName?: string;
  recipientId?: string;
  userId?: string;
}

/** `#/definitions/EnvelopeViews` / `viewUrl`. */
export interface ViewUrl {
  url: string;
}

/** `#/definitions/accountAddress` (subset used by newAccountDefinition). */
export type AccountAddress = Partial<
  Record<'address1' | 'address2' | 'city' | 'country' | 'fax' | 'phone' | 'postalCode' | 'state', string>
>;

/**
 * `#/definitions/newAccountDefinition` (POST /v2/accounts), shaped as
 * service-api.md 4.3 shows (v2); the client sends v2.1 its shape
 * (newAccountDefinitionV21).
 */
export interface NewAccountDefinition {
  accountName: string;
  accountSettings: unknown[];
  addressInformation: AccountAddress;
  creditCardInformation: null;
  distributorCode: string;
  distributorPassword: string;
  initialUser: {
    email: string;
    firstName: string;
    lastName: string;
    middleName: string;
    password: string;
    suffixName: string;
    title: string;
    userName: string;
    userSettings: unknown[];
  };
  planInformation: { planId: string };
  referralInformation: null;
  socialAccountInformation: null;
}

/** `#/definitions/newAccountSummary` (201 of account creation). */
export interface NewAccountSummary {
  accountId: string;
  userId: string;
  accountIdGuid?: string;
  accountName?: string;
  baseUrl?: string;
}

/** `#/definitions/accountInformation` (GET /v2/accounts/{accountId}), fields signrun reads. */
export interface AccountInformation {
  accountIdGuid?: string;
  accountName?: string;
  accountSettings?: unknown;
  [field: string]: unknown;
}

/** `#/definitions/bulkSendingList` (POST …/bulk_send_lists). */
export interface BulkSendingList {
  listId?: string;
  name: string;
  bulkCopies: BulkSendingCopy[];
}

/** `#/definitions/bulkSendResponse` (POST …/bulk_send_lists/{id}/send). */
export interface BulkSendResponse {
  batchId?: string;
  batchName?: string;
  batchSize?: string;
}

/** `#/definitions/bulkSendBatchStatus` (GET …/bulk_send_batch/{id}): counts as strings. */
export interface BulkSendBatchStatus {
  batchId?: string;
  batchName?: string;
  batchSize?: string;
  queued?: string;
  sent?: string;
  failed?: string;
  bulkErrors?: Array<{ errorMessage?: string; recipientEmails?: string[] }>;
}

/** `#/definitions/bulkSendBatchSummaries` (GET …/bulk_send_batch). */
export interface BulkSendBatchSummaries {
  bulkBatchSummaries?: Array<BulkSendBatchStatus & { batchUri?: string; submittedDate?: string }>;
  totalSetSize?: string;
  resultSetSize?: string;
}
