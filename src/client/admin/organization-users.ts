import type { CallOptions } from '../call-options.js';
import type {
  NewAccountUserRequest,
  NewUserRequest,
  NewUserResponse,
  OrganizationUserResponse,
  OrganizationUsersResponse,
} from './admin-wire.js';
import { adminJson, enc, type AdminScope } from './admin-scope.js';

// The Admin API's users of an organisation and the groups of its accounts
// (DS groups), one call each; bulk imports are bulk-import.ts's.

/**
 * GET …/users?account_id=…: every user of the organisation in one account,
 * page by page (`start`, `take`: DocuSign's paging).
 */
export async function users(
  scope: AdminScope,
  accountId: string,
  options: CallOptions = {},
): Promise<OrganizationUserResponse[]> {
  const found: OrganizationUserResponse[] = [];
  const take = 250;
  for (let start = 0; ; start += take) {
    const query = new URLSearchParams({ account_id: accountId, start: String(start), take: String(take) });
    const page = await adminJson<OrganizationUsersResponse>(
      scope,
      'GET',
      `${scope.org}/users?${query.toString()}`,
      'organizationUsers',
      options,
    );
    const onPage = page?.users ?? [];
    found.push(...onPage);
    const total = page?.paging?.total_set_size;
    if (onPage.length < take || (total !== undefined && found.length >= total)) return found;
  }
}

/** GET …/accounts/{accountId}/groups: an account's groups, by name (Account_Accounts_GetGroupsV2). */
export async function accountGroups(
  scope: AdminScope,
  accountId: string,
  options: CallOptions = {},
): Promise<Array<{ id?: number; name?: string }>> {
  const answer = await adminJson<{ groups?: Array<{ id?: number; name?: string }> }>(
    scope,
    'GET',
    `${scope.org}/accounts/${enc(accountId)}/groups?take=1000`,
    'accountGroups',
    options,
  );
  return answer?.groups ?? [];
}

/** POST (v2.1) …/accounts/{accountId}/dsgroups: a group of the account (DSGroups_AddDSGroup). Never repeated: a later listing confirms it. */
export async function createDsGroup(
  scope: AdminScope,
  accountId: string,
  groupName: string,
  options: CallOptions = {},
): Promise<{ ds_group_id?: string; group_id?: string; group_name?: string }> {
  return adminJson(
    scope,
    'POST',
    `${scope.org21}/accounts/${enc(accountId)}/dsgroups`,
    'createDsGroup',
    options,
    { group_name: groupName },
    false,
  );
}

/** POST …/accounts/{accountId}/users: a user of the organisation in one account (OrganizationUser_OrganizationUsers_PostAccountUsersV2). Never repeated. */
export async function addAccountUser(
  scope: AdminScope,
  accountId: string,
  request: NewAccountUserRequest,
  options: CallOptions = {},
): Promise<NewUserResponse> {
  return adminJson<NewUserResponse>(
    scope,
    'POST',
    `${scope.org}/accounts/${enc(accountId)}/users`,
    'addAccountUser',
    options,
    request,
    false,
  );
}

/** POST …/users: a user of the organisation with its memberships (OrganizationUser_Users_AddV2). Never repeated. */
export async function addUser(
  scope: AdminScope,
  request: NewUserRequest,
  options: CallOptions = {},
): Promise<NewUserResponse> {
  return adminJson<NewUserResponse>(
    scope,
    'POST',
    `${scope.org}/users`,
    'addOrganizationUser',
    options,
    request,
    false,
  );
}
