import type { Auth } from '../auth.js';
import { adminJwtScopes } from './admin-scopes.js';
import { randomUUID } from 'node:crypto';
import type { EsignatureClient, CallOptions } from '../esignature-client.js';
import { ClientBadResponseError } from '../client-errors.js';
import { pathOf } from '../redact.js';
import type {
  AssetGroupAccountClone,
  AssetGroupAccountClones,
  AssetGroupAccountResponse,
  AssetGroupAccountsResponse,
  AssetGroupWorkResult,
  NewAccountUserRequest,
  NewUserRequest,
  NewUserResponse,
  OrganizationAccountSettingsImportResponse,
  OrganizationExportResponse,
  OrganizationImportResponse,
  OrganizationSubscriptionResponse,
  OrganizationUserResponse,
  OrganizationUsersResponse,
  SubAccountCreateRequest,
  SubAccountCreateWorker,
  SubAccountCreateWorkerResponse,
} from './admin-wire.js';

const enc = encodeURIComponent;

/**
 * DocuSign's Admin API for one organisation (paths and names from
 * admin.rest.swagger-v2.1.json), over the eSignature client's pipeline
 * (throttle → retry → token → fetch once) with the credentials it was made
 * with (the JWT grant with the admin scopes). Every path is under
 * `/v2/organizations/{organizationId}` of that one organisation: a client
 * made for one organisation never calls another's. Knows nothing of job
 * files or state.
 */
// Over 300 lines: one method per Admin API endpoint of an organisation (about twenty), each a few lines over
// #json/#upload/#text; to be split by API group when the client's endpoints are typed from the Swagger (issue 33).
export class AdminClient {
  readonly organizationId: string;
  readonly #http: EsignatureClient;
  readonly #org: string;
  readonly #org21: string;

  /**
   * `http`: the eSignature client whose pipeline and credentials carry the
   * calls (made with the admin scopes); `base`: the Admin API's base
   * (admin-base.ts), e.g. https://api-d.docusign.net/management.
   */
  constructor(http: EsignatureClient, base: string, organizationId: string) {
    this.#http = http;
    this.organizationId = organizationId;
    const root = base.replace(/\/+$/, '');
    this.#org = `${root}/v2/organizations/${enc(organizationId)}`;
    this.#org21 = `${root}/v2.1/organizations/${enc(organizationId)}`;
  }

  /** GET …/planItems: the organisation's plan items (OrganizationSubAccount_GetOrganizationPlanItems). */
  async planItems(options: CallOptions = {}): Promise<OrganizationSubscriptionResponse[]> {
    return (
      (await this.#json<OrganizationSubscriptionResponse[]>('GET', `${this.#org}/planItems`, 'planItems', options)) ??
      []
    );
  }

  /** GET …/assetGroups/accounts: the organisation's accounts, the record of what exists. */
  async assetGroupAccounts(options: CallOptions = {}): Promise<AssetGroupAccountResponse[]> {
    const answer = await this.#json<AssetGroupAccountsResponse>(
      'GET',
      `${this.#org}/assetGroups/accounts`,
      'assetGroupAccounts',
      options,
    );
    return answer?.assetGroupAccounts ?? [];
  }

  /** POST …/assetGroups/accountCreate: asynchronous; its work is followed with {@link accountCreation}. Never repeated. */
  async createAccount(request: SubAccountCreateRequest, options: CallOptions = {}): Promise<AssetGroupWorkResult> {
    const url = `${this.#org}/assetGroups/accountCreate`;
    const answer = await this.#json<AssetGroupWorkResult>('POST', url, 'createSubAccount', options, request, false);
    if (!answer?.AssetGroupWork?.AssetGroupWorkId)
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'createSubAccount' },
        'no AssetGroupWork.AssetGroupWorkId in the answer',
      );
    return answer;
  }

  /** GET …/assetGroup/{assetGroupId}/subAccountCreated/{workId}: an account creation's status. */
  async accountCreation(
    assetGroupId: string,
    workId: string,
    options: CallOptions = {},
  ): Promise<SubAccountCreateWorker> {
    return this.#json<SubAccountCreateWorker>(
      'GET',
      `${this.#org}/assetGroup/${enc(assetGroupId)}/subAccountCreated/${enc(workId)}`,
      'accountCreation',
      options,
    );
  }

  /** GET …/subAccountsCreated: the organisation's account creations (a run killed mid-way finds its own here). */
  async accountCreations(options: CallOptions = {}): Promise<SubAccountCreateWorker[]> {
    const answer = await this.#json<SubAccountCreateWorkerResponse>(
      'GET',
      `${this.#org}/subAccountsCreated`,
      'accountCreations',
      options,
    );
    return answer?.assetGroupWorks ?? [];
  }

  /** POST …/assetGroups/accountClone: asynchronous; followed with {@link accountClone}. Never repeated. */
  async cloneAccount(request: AssetGroupAccountClone, options: CallOptions = {}): Promise<AssetGroupAccountClone> {
    const url = `${this.#org}/assetGroups/accountClone`;
    const answer = await this.#json<AssetGroupAccountClone>('POST', url, 'cloneAccount', options, request, false);
    if (!answer?.assetGroupWorkId || !answer.assetGroupId)
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'cloneAccount' },
        'no assetGroupWorkId and assetGroupId in the answer',
      );
    return answer;
  }

  /** GET …/assetGroups/{assetGroupId}/accountClones/{workId}: a clone's status. */
  async accountClone(assetGroupId: string, workId: string, options: CallOptions = {}): Promise<AssetGroupAccountClone> {
    return this.#json<AssetGroupAccountClone>(
      'GET',
      `${this.#org}/assetGroups/${enc(assetGroupId)}/accountClones/${enc(workId)}`,
      'accountClone',
      options,
    );
  }

  /** GET …/assetGroups/accountClones: the organisation's clones (a run killed mid-way finds its own here). */
  async accountClones(options: CallOptions = {}): Promise<AssetGroupAccountClone[]> {
    const answer = await this.#json<AssetGroupAccountClones>(
      'GET',
      `${this.#org}/assetGroups/accountClones`,
      'accountClones',
      options,
    );
    return answer?.assetGroupWorks ?? [];
  }

  /**
   * GET …/users?account_id=…: every user of the organisation in one account,
   * page by page (`start`, `take`: DocuSign's paging).
   */
  async users(accountId: string, options: CallOptions = {}): Promise<OrganizationUserResponse[]> {
    const users: OrganizationUserResponse[] = [];
    const take = 250;
    for (let start = 0; ; start += take) {
      const query = new URLSearchParams({ account_id: accountId, start: String(start), take: String(take) });
      const page = await this.#json<OrganizationUsersResponse>(
        'GET',
        `${this.#org}/users?${query.toString()}`,
        'organizationUsers',
        options,
      );
      const found = page?.users ?? [];
      users.push(...found);
      const total = page?.paging?.total_set_size;
      if (found.length < take || (total !== undefined && users.length >= total)) return users;
    }
  }

  /** GET …/accounts/{accountId}/groups: an account's groups, by name (Account_Accounts_GetGroupsV2). */
  async accountGroups(accountId: string, options: CallOptions = {}): Promise<Array<{ id?: number; name?: string }>> {
    const answer = await this.#json<{ groups?: Array<{ id?: number; name?: string }> }>(
      'GET',
      `${this.#org}/accounts/${enc(accountId)}/groups?take=1000`,
      'accountGroups',
      options,
    );
    return answer?.groups ?? [];
  }

  /** POST (v2.1) …/accounts/{accountId}/dsgroups: a group of the account (DSGroups_AddDSGroup). Never repeated: a later listing confirms it. */
  async createDsGroup(
    accountId: string,
    groupName: string,
    options: CallOptions = {},
  ): Promise<{ ds_group_id?: string; group_id?: string; group_name?: string }> {
    return this.#json(
      'POST',
      `${this.#org21}/accounts/${enc(accountId)}/dsgroups`,
      'createDsGroup',
      options,
      { group_name: groupName },
      false,
    );
  }

  /** POST …/accounts/{accountId}/users: a user of the organisation in one account (OrganizationUser_OrganizationUsers_PostAccountUsersV2). Never repeated. */
  async addAccountUser(
    accountId: string,
    request: NewAccountUserRequest,
    options: CallOptions = {},
  ): Promise<NewUserResponse> {
    return this.#json<NewUserResponse>(
      'POST',
      `${this.#org}/accounts/${enc(accountId)}/users`,
      'addAccountUser',
      options,
      request,
      false,
    );
  }

  /** POST …/users: a user of the organisation with its memberships (OrganizationUser_Users_AddV2). Never repeated. */
  async addUser(request: NewUserRequest, options: CallOptions = {}): Promise<NewUserResponse> {
    return this.#json<NewUserResponse>('POST', `${this.#org}/users`, 'addOrganizationUser', options, request, false);
  }

  /**
   * POST …/imports/bulk_users/add: a CSV of users (DocuSign's bulk import
   * columns), sent as `file.csv` of a multipart form. Never repeated.
   */
  async importUsers(csv: string, options: CallOptions = {}): Promise<OrganizationImportResponse> {
    return this.#upload<OrganizationImportResponse>(`${this.#org}/imports/bulk_users/add`, 'importUsers', csv, options);
  }

  /** GET …/imports/bulk_users/{importId}: a bulk import's status. */
  async userImport(importId: string, options: CallOptions = {}): Promise<OrganizationImportResponse> {
    return this.#json<OrganizationImportResponse>(
      'GET',
      `${this.#org}/imports/bulk_users/${enc(importId)}`,
      'userImport',
      options,
    );
  }

  /** GET …/imports/bulk_users/{importId}/results_csv: the import's per-row results (text/csv). */
  async userImportResults(importId: string, options: CallOptions = {}): Promise<string> {
    return this.#text(`${this.#org}/imports/bulk_users/${enc(importId)}/results_csv`, 'userImportResults', options);
  }

  /** POST …/exports/account_settings: an export of these accounts' settings (asynchronous; followed with {@link settingsExport}). */
  async exportSettings(accountIds: readonly string[], options: CallOptions = {}): Promise<OrganizationExportResponse> {
    return this.#json<OrganizationExportResponse>(
      'POST',
      `${this.#org}/exports/account_settings`,
      'exportAccountSettings',
      options,
      { accounts: accountIds.map((account_id) => ({ account_id })) },
      true,
    );
  }

  /** GET …/exports/account_settings/{exportId}: an export's status, and its CSV's address once done. */
  async settingsExport(exportId: string, options: CallOptions = {}): Promise<OrganizationExportResponse> {
    return this.#json<OrganizationExportResponse>(
      'GET',
      `${this.#org}/exports/account_settings/${enc(exportId)}`,
      'accountSettingsExport',
      options,
    );
  }

  /** POST …/imports/account_settings: a settings CSV (`file.csv`). Never repeated. */
  async importSettings(csv: string, options: CallOptions = {}): Promise<OrganizationAccountSettingsImportResponse> {
    return this.#upload<OrganizationAccountSettingsImportResponse>(
      `${this.#org}/imports/account_settings`,
      'importAccountSettings',
      csv,
      options,
    );
  }

  /** GET …/imports/account_settings/{importId}: a settings import's status. */
  async settingsImport(
    importId: string,
    options: CallOptions = {},
  ): Promise<OrganizationAccountSettingsImportResponse> {
    return this.#json<OrganizationAccountSettingsImportResponse>(
      'GET',
      `${this.#org}/imports/account_settings/${enc(importId)}`,
      'accountSettingsImport',
      options,
    );
  }

  /**
   * A CSV the Admin API names (an export's `results[].url`): read with the
   * organisation's credentials only when it is under this organisation's
   * address, never elsewhere.
   */
  async csvAt(url: string, options: CallOptions = {}): Promise<string> {
    if (!url.startsWith(`${this.#org}/`))
      throw new ClientBadResponseError(
        { method: 'GET', path: pathOf(url), operation: 'exportCsv' },
        "the export's address is not under the organisation's: not followed with its credentials",
      );
    return this.#text(url, 'exportCsv', options);
  }

  /** The v2.1 base of the organisation (DS groups, product permission profiles). */
  get v21(): string {
    return this.#org21;
  }

  /** A CSV sent as the `file.csv` part of a multipart form, as DocuSign's imports take it. Never repeated. */
  async #upload<T>(url: string, operation: string, csv: string, options: CallOptions): Promise<T> {
    const boundary = `signrun-${randomUUID()}`;
    const data = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file.csv"; filename="file.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      'utf8',
    );
    const response = await this.#http.request(
      {
        method: 'POST',
        url,
        bytes: { data, contentType: `multipart/form-data; boundary=${boundary}` },
        operation,
        idempotent: false,
      },
      options,
    );
    return response.json as T;
  }

  /** A text answer (CSV). */
  async #text(url: string, operation: string, options: CallOptions): Promise<string> {
    const response = await this.#http.request({ method: 'GET', url, operation, responseType: 'stream' }, options);
    const chunks: Buffer[] = [];
    for await (const chunk of response.stream ?? []) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }

  async #json<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    operation: string,
    options: CallOptions,
    body?: unknown,
    idempotent?: boolean,
  ): Promise<T> {
    const response = await this.#http.request(
      {
        method,
        url,
        operation,
        ...(body === undefined ? {} : { body }),
        ...(idempotent === undefined ? {} : { idempotent }),
      },
      options,
    );
    return response.json as T;
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
