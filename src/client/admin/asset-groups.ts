import type { CallOptions } from '../call-options.js';
import { ClientBadResponseError } from '../client-errors.js';
import { pathOf } from '../redact.js';
import type {
  AssetGroupAccountClone,
  AssetGroupAccountClones,
  AssetGroupAccountResponse,
  AssetGroupAccountsResponse,
  AssetGroupWorkResult,
  OrganizationSubscriptionResponse,
  SubAccountCreateRequest,
  SubAccountCreateWorker,
  SubAccountCreateWorkerResponse,
} from './admin-wire.js';
import { adminJson, enc, type AdminScope } from './admin-scope.js';

// The Admin API's accounts of an organisation: its plan items, its asset
// groups' accounts, and the asynchronous creations and clones of accounts.

/** GET …/planItems: the organisation's plan items (OrganizationSubAccount_GetOrganizationPlanItems). */
export async function planItems(
  scope: AdminScope,
  options: CallOptions = {},
): Promise<OrganizationSubscriptionResponse[]> {
  return (
    (await adminJson<OrganizationSubscriptionResponse[]>(
      scope,
      'GET',
      `${scope.org}/planItems`,
      'planItems',
      options,
    )) ?? []
  );
}

/** GET …/assetGroups/accounts: the organisation's accounts, the record of what exists. */
export async function assetGroupAccounts(
  scope: AdminScope,
  options: CallOptions = {},
): Promise<AssetGroupAccountResponse[]> {
  const answer = await adminJson<AssetGroupAccountsResponse>(
    scope,
    'GET',
    `${scope.org}/assetGroups/accounts`,
    'assetGroupAccounts',
    options,
  );
  return answer?.assetGroupAccounts ?? [];
}

/** POST …/assetGroups/accountCreate: asynchronous; its work is followed with {@link accountCreation}. Never repeated. */
export async function createAccount(
  scope: AdminScope,
  request: SubAccountCreateRequest,
  options: CallOptions = {},
): Promise<AssetGroupWorkResult> {
  const url = `${scope.org}/assetGroups/accountCreate`;
  const answer = await adminJson<AssetGroupWorkResult>(scope, 'POST', url, 'createSubAccount', options, request, false);
  if (!answer?.AssetGroupWork?.AssetGroupWorkId)
    throw new ClientBadResponseError(
      { method: 'POST', path: pathOf(url), operation: 'createSubAccount' },
      'no AssetGroupWork.AssetGroupWorkId in the answer',
    );
  return answer;
}

/** GET …/assetGroup/{assetGroupId}/subAccountCreated/{workId}: an account creation's status. */
export async function accountCreation(
  scope: AdminScope,
  assetGroupId: string,
  workId: string,
  options: CallOptions = {},
): Promise<SubAccountCreateWorker> {
  return adminJson<SubAccountCreateWorker>(
    scope,
    'GET',
    `${scope.org}/assetGroup/${enc(assetGroupId)}/subAccountCreated/${enc(workId)}`,
    'accountCreation',
    options,
  );
}

/** GET …/subAccountsCreated: the organisation's account creations (a run killed mid-way finds its own here). */
export async function accountCreations(
  scope: AdminScope,
  options: CallOptions = {},
): Promise<SubAccountCreateWorker[]> {
  const answer = await adminJson<SubAccountCreateWorkerResponse>(
    scope,
    'GET',
    `${scope.org}/subAccountsCreated`,
    'accountCreations',
    options,
  );
  return answer?.assetGroupWorks ?? [];
}

/** POST …/assetGroups/accountClone: asynchronous; followed with {@link accountClone}. Never repeated. */
export async function cloneAccount(
  scope: AdminScope,
  request: AssetGroupAccountClone,
  options: CallOptions = {},
): Promise<AssetGroupAccountClone> {
  const url = `${scope.org}/assetGroups/accountClone`;
  const answer = await adminJson<AssetGroupAccountClone>(scope, 'POST', url, 'cloneAccount', options, request, false);
  if (!answer?.assetGroupWorkId || !answer.assetGroupId)
    throw new ClientBadResponseError(
      { method: 'POST', path: pathOf(url), operation: 'cloneAccount' },
      'no assetGroupWorkId and assetGroupId in the answer',
    );
  return answer;
}

/** GET …/assetGroups/{assetGroupId}/accountClones/{workId}: a clone's status. */
export async function accountClone(
  scope: AdminScope,
  assetGroupId: string,
  workId: string,
  options: CallOptions = {},
): Promise<AssetGroupAccountClone> {
  return adminJson<AssetGroupAccountClone>(
    scope,
    'GET',
    `${scope.org}/assetGroups/${enc(assetGroupId)}/accountClones/${enc(workId)}`,
    'accountClone',
    options,
  );
}

/** GET …/assetGroups/accountClones: the organisation's clones (a run killed mid-way finds its own here). */
export async function accountClones(scope: AdminScope, options: CallOptions = {}): Promise<AssetGroupAccountClone[]> {
  const answer = await adminJson<AssetGroupAccountClones>(
    scope,
    'GET',
    `${scope.org}/assetGroups/accountClones`,
    'accountClones',
    options,
  );
  return answer?.assetGroupWorks ?? [];
}
