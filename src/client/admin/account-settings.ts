import type { CallOptions } from '../call-options.js';
import { ClientBadResponseError } from '../client-errors.js';
import { pathOf } from '../redact.js';
import type { OrganizationAccountSettingsImportResponse, OrganizationExportResponse } from './admin-wire.js';
import { adminJson, adminText, adminUpload, enc, type AdminScope } from './admin-scope.js';

// The Admin API's account settings of an organisation's accounts: exported
// and imported as CSV, each followed to its end.

/** POST …/exports/account_settings: an export of these accounts' settings (asynchronous; followed with {@link settingsExport}). */
export async function exportSettings(
  scope: AdminScope,
  accountIds: readonly string[],
  options: CallOptions = {},
): Promise<OrganizationExportResponse> {
  return adminJson<OrganizationExportResponse>(
    scope,
    'POST',
    `${scope.org}/exports/account_settings`,
    'exportAccountSettings',
    options,
    { accounts: accountIds.map((account_id) => ({ account_id })) },
    true,
  );
}

/** GET …/exports/account_settings/{exportId}: an export's status, and its CSV's address once done. */
export async function settingsExport(
  scope: AdminScope,
  exportId: string,
  options: CallOptions = {},
): Promise<OrganizationExportResponse> {
  return adminJson<OrganizationExportResponse>(
    scope,
    'GET',
    `${scope.org}/exports/account_settings/${enc(exportId)}`,
    'accountSettingsExport',
    options,
  );
}

/** POST …/imports/account_settings: a settings CSV (`file.csv`). Never repeated. */
export async function importSettings(
  scope: AdminScope,
  csv: string,
  options: CallOptions = {},
): Promise<OrganizationAccountSettingsImportResponse> {
  return adminUpload<OrganizationAccountSettingsImportResponse>(
    scope,
    `${scope.org}/imports/account_settings`,
    'importAccountSettings',
    csv,
    options,
  );
}

/** GET …/imports/account_settings/{importId}: a settings import's status. */
export async function settingsImport(
  scope: AdminScope,
  importId: string,
  options: CallOptions = {},
): Promise<OrganizationAccountSettingsImportResponse> {
  return adminJson<OrganizationAccountSettingsImportResponse>(
    scope,
    'GET',
    `${scope.org}/imports/account_settings/${enc(importId)}`,
    'accountSettingsImport',
    options,
  );
}

/**
 * A CSV the Admin API names (an export's `results[].url`): read with the
 * organisation's credentials only when it is under this organisation's
 * address, never elsewhere.
 */
export async function csvAt(scope: AdminScope, url: string, options: CallOptions = {}): Promise<string> {
  if (!url.startsWith(`${scope.org}/`))
    throw new ClientBadResponseError(
      { method: 'GET', path: pathOf(url), operation: 'exportCsv' },
      "the export's address is not under the organisation's: not followed with its credentials",
    );
  return adminText(scope, url, 'exportCsv', options);
}
