import type { Auth } from '../auth.js';
import type { CallOptions } from '../call-options.js';
import type { EsignatureClient } from '../esignature-client.js';
import { adminJwtScopes } from './admin-scopes.js';
import type {
  AssetGroupAccountClone,
  AssetGroupAccountResponse,
  AssetGroupWorkResult,
  NewAccountUserRequest,
  NewUserRequest,
  NewUserResponse,
  OrganizationAccountSettingsImportResponse,
  OrganizationExportResponse,
  OrganizationImportResponse,
  OrganizationSubscriptionResponse,
  OrganizationUserResponse,
  SubAccountCreateRequest,
  SubAccountCreateWorker,
} from './admin-wire.js';
import { enc, type AdminScope } from './admin-scope.js';
import * as assetGroups from './asset-groups.js';
import * as organizationUsers from './organization-users.js';
import * as bulkImport from './bulk-import.js';
import * as accountSettings from './account-settings.js';

/**
 * DocuSign's Admin API for one organisation (paths and names from
 * admin.rest.swagger-v2.1.json), over the eSignature client's pipeline
 * (throttle → retry → token → fetch once) with the credentials it was made
 * with (the JWT grant with the admin scopes). Every path is under
 * `/v2/organizations/{organizationId}` of that one organisation: a client
 * made for one organisation never calls another's. Knows nothing of job
 * files or state. The calls live by API group, each a function given the
 * organisation (an {@link AdminScope}), as the eSignature client's do:
 * asset-groups.ts (accounts, creations, clones), organization-users.ts
 * (users, DS groups), bulk-import.ts, account-settings.ts; a method here is
 * one line.
 */
export class AdminClient {
  readonly organizationId: string;
  readonly #scope: AdminScope;

  /**
   * `http`: the eSignature client whose pipeline and credentials carry the
   * calls (made with the admin scopes); `base`: the Admin API's base
   * (admin-base.ts), e.g. https://api-d.docusign.net/management.
   */
  constructor(http: EsignatureClient, base: string, organizationId: string) {
    this.organizationId = organizationId;
    const root = base.replace(/\/+$/, '');
    this.#scope = {
      http,
      org: `${root}/v2/organizations/${enc(organizationId)}`,
      org21: `${root}/v2.1/organizations/${enc(organizationId)}`,
    };
  }

  planItems(options: CallOptions = {}): Promise<OrganizationSubscriptionResponse[]> {
    return assetGroups.planItems(this.#scope, options);
  }
  assetGroupAccounts(options: CallOptions = {}): Promise<AssetGroupAccountResponse[]> {
    return assetGroups.assetGroupAccounts(this.#scope, options);
  }
  createAccount(request: SubAccountCreateRequest, options: CallOptions = {}): Promise<AssetGroupWorkResult> {
    return assetGroups.createAccount(this.#scope, request, options);
  }
  accountCreation(assetGroupId: string, workId: string, options: CallOptions = {}): Promise<SubAccountCreateWorker> {
    return assetGroups.accountCreation(this.#scope, assetGroupId, workId, options);
  }
  accountCreations(options: CallOptions = {}): Promise<SubAccountCreateWorker[]> {
    return assetGroups.accountCreations(this.#scope, options);
  }
  cloneAccount(request: AssetGroupAccountClone, options: CallOptions = {}): Promise<AssetGroupAccountClone> {
    return assetGroups.cloneAccount(this.#scope, request, options);
  }
  accountClone(assetGroupId: string, workId: string, options: CallOptions = {}): Promise<AssetGroupAccountClone> {
    return assetGroups.accountClone(this.#scope, assetGroupId, workId, options);
  }
  accountClones(options: CallOptions = {}): Promise<AssetGroupAccountClone[]> {
    return assetGroups.accountClones(this.#scope, options);
  }

  users(accountId: string, options: CallOptions = {}): Promise<OrganizationUserResponse[]> {
    return organizationUsers.users(this.#scope, accountId, options);
  }
  accountGroups(accountId: string, options: CallOptions = {}): Promise<Array<{ id?: number; name?: string }>> {
    return organizationUsers.accountGroups(this.#scope, accountId, options);
  }
  createDsGroup(
    accountId: string,
    groupName: string,
    options: CallOptions = {},
  ): Promise<{ ds_group_id?: string; group_id?: string; group_name?: string }> {
    return organizationUsers.createDsGroup(this.#scope, accountId, groupName, options);
  }
  addAccountUser(
    accountId: string,
    request: NewAccountUserRequest,
    options: CallOptions = {},
  ): Promise<NewUserResponse> {
    return organizationUsers.addAccountUser(this.#scope, accountId, request, options);
  }
  addUser(request: NewUserRequest, options: CallOptions = {}): Promise<NewUserResponse> {
    return organizationUsers.addUser(this.#scope, request, options);
  }

  importUsers(csv: string, options: CallOptions = {}): Promise<OrganizationImportResponse> {
    return bulkImport.importUsers(this.#scope, csv, options);
  }
  userImport(importId: string, options: CallOptions = {}): Promise<OrganizationImportResponse> {
    return bulkImport.userImport(this.#scope, importId, options);
  }
  userImportResults(importId: string, options: CallOptions = {}): Promise<string> {
    return bulkImport.userImportResults(this.#scope, importId, options);
  }

  exportSettings(accountIds: readonly string[], options: CallOptions = {}): Promise<OrganizationExportResponse> {
    return accountSettings.exportSettings(this.#scope, accountIds, options);
  }
  settingsExport(exportId: string, options: CallOptions = {}): Promise<OrganizationExportResponse> {
    return accountSettings.settingsExport(this.#scope, exportId, options);
  }
  importSettings(csv: string, options: CallOptions = {}): Promise<OrganizationAccountSettingsImportResponse> {
    return accountSettings.importSettings(this.#scope, csv, options);
  }
  settingsImport(importId: string, options: CallOptions = {}): Promise<OrganizationAccountSettingsImportResponse> {
    return accountSettings.settingsImport(this.#scope, importId, options);
  }
  csvAt(url: string, options: CallOptions = {}): Promise<string> {
    return accountSettings.csvAt(this.#scope, url, options);
  }

  /** The v2.1 base of the organisation (DS groups, product permission profiles). */
  get v21(): string {
    return this.#scope.org21;
  }
}

/**
 * The Admin API client of one organisation, over `http`'s pipeline with
 * `auth`: with the JWT grant, the same user's token with the admin scopes
 * added (a token of its own); the legacy header and a bearer token as they
 * are (the sandbox takes them; a bearer token must carry the scopes itself).
 */
export function adminClientOf(http: EsignatureClient, auth: Auth, base: string, organizationId: string): AdminClient {
  const adminAuth: Auth =
    auth.kind === 'oauth' ? { kind: 'oauth', session: auth.session.withScopes(adminJwtScopes) } : auth;
  return new AdminClient(http.withAuth(adminAuth), base, organizationId);
}
