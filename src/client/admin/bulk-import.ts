import type { CallOptions } from '../call-options.js';
import type { OrganizationImportResponse } from './admin-wire.js';
import { adminJson, adminText, adminUpload, enc, type AdminScope } from './admin-scope.js';

// The Admin API's bulk import of an organisation's users: a CSV, followed to
// its end, and its per-row results.

/**
 * POST …/imports/bulk_users/add: a CSV of users (DocuSign's bulk import
 * columns), sent as `file.csv` of a multipart form. Never repeated.
 */
export async function importUsers(
  scope: AdminScope,
  csv: string,
  options: CallOptions = {},
): Promise<OrganizationImportResponse> {
  return adminUpload<OrganizationImportResponse>(
    scope,
    `${scope.org}/imports/bulk_users/add`,
    'importUsers',
    csv,
    options,
  );
}

/** GET …/imports/bulk_users/{importId}: a bulk import's status. */
export async function userImport(
  scope: AdminScope,
  importId: string,
  options: CallOptions = {},
): Promise<OrganizationImportResponse> {
  return adminJson<OrganizationImportResponse>(
    scope,
    'GET',
    `${scope.org}/imports/bulk_users/${enc(importId)}`,
    'userImport',
    options,
  );
}

/** GET …/imports/bulk_users/{importId}/results_csv: the import's per-row results (text/csv). */
export async function userImportResults(
  scope: AdminScope,
  importId: string,
  options: CallOptions = {},
): Promise<string> {
  return adminText(scope, `${scope.org}/imports/bulk_users/${enc(importId)}/results_csv`, 'userImportResults', options);
}
