/**
 * DocuSign's Admin API on the wire, as its Swagger names it
 * (test/fixtures/docusign/admin.rest.swagger-v2.1.json, `#/definitions/…`):
 * the definitions signrun sends and reads, each named after its definition.
 * Only the properties signrun uses are listed; test/client/admin-wire.test.ts
 * checks each against its definition (a checked table, as octokit keeps its
 * routes), so a name cannot drift from DocuSign's.
 */

/** `#/definitions/AssetGroupAccountResponse`: an account of the organisation's asset groups. */
export interface AssetGroupAccountResponse {
  assetGroupId?: string;
  assetGroupName?: string;
  accountId?: string;
  accountName?: string;
  externalAccountId?: number;
  compliant?: boolean;
  siteId?: number;
  siteName?: string;
}

/** `#/definitions/AssetGroupAccountsResponse`. */
export interface AssetGroupAccountsResponse {
  assetGroupAccounts?: AssetGroupAccountResponse[];
}

/** `#/definitions/SubscriptionPlanItemResponse`. */
export interface SubscriptionPlanItemResponse {
  plan_item_id?: string;
  plan_item_name?: string;
}

/** `#/definitions/OrganizationSubscriptionResponse`: a plan item of the organisation. */
export interface OrganizationSubscriptionResponse {
  plan_id?: string;
  plan_name?: string;
  asset_group_id?: string;
  subscription_id?: string;
  modules?: SubscriptionPlanItemResponse[];
}

/** `#/definitions/SubAccountCreateRequest.SubAccountCreationTargetAccountAdmin`. */
export interface SubAccountCreationTargetAccountAdmin {
  email: string;
  firstName?: string;
  lastName?: string;
  locale?: string;
}

/** `#/definitions/SubAccountCreateRequest`: the body of `POST …/assetGroups/accountCreate`. */
export interface SubAccountCreateRequest {
  /** `SubAccountCreateRequest.SubAccountCreationSubscription`. */
  subscriptionDetails: { id?: string; planId: string; modules?: string[] };
  /** `SubAccountCreateRequest.SubAccountCreationTargetAccountDetails`. */
  targetAccount: {
    name: string;
    countryCode?: string;
    region?: string;
    site?: string;
    admin: SubAccountCreationTargetAccountAdmin;
  };
}

/** `#/definitions/Subscription.Provision.Model.AssetGroupWork` (DocuSign writes its names in Pascal case). */
export interface AssetGroupWork {
  AssetGroupWorkId?: string;
  AssetGroupId?: string;
  AssetGroupWorkType?: string;
  Status?: string;
  TargetAccountId?: string;
  SourceAccountId?: string;
  Message?: string;
}

/** `#/definitions/Subscription.Provision.Model.AssetGroupWorkResult`: what accountCreate answers. */
export interface AssetGroupWorkResult {
  AssetGroupWork?: AssetGroupWork;
  Message?: string;
  Success?: boolean;
}

/** `#/definitions/SubAccountErrorDetails`. */
export interface SubAccountErrorDetails {
  error?: string;
  errorDescription?: string;
  isSystemError?: boolean;
}

/** `#/definitions/SubAccountCreateWorker`: an account creation, as its status endpoint says it. */
export interface SubAccountCreateWorker {
  /** `SubAccountCreateTargetAccount`. */
  targetAccount?: { id?: string; name?: string; countryCode?: string; admin?: SubAccountCreationTargetAccountAdmin };
  assetGroupWorkId?: string;
  assetGroupId?: string;
  assetGroupWorkType?: string;
  status?: string;
  message?: string;
  createAccountProcessingFailureDetails?: SubAccountErrorDetails;
}

/** `#/definitions/SubAccountCreateWorkerResponse`: the organisation's account creations. */
export interface SubAccountCreateWorkerResponse {
  assetGroupWorks?: SubAccountCreateWorker[];
}

/** `#/definitions/AssetGroupAccountClone`: a clone asked for, and its status. */
export interface AssetGroupAccountClone {
  /** `AssetGroupAccountCloneSourceAccount`. */
  sourceAccount: { id: string; name?: string };
  /** `AssetGroupAccountCloneTargetAccount`. */
  targetAccount: {
    id?: string;
    name: string;
    countryCode?: string;
    region?: string;
    site?: string;
    admin?: SubAccountCreationTargetAccountAdmin;
  };
  assetGroupWorkId?: string;
  assetGroupId?: string;
  assetGroupWorkType?: string;
  status?: string;
  message?: string;
  cloneProcessingFailureDetails?: SubAccountErrorDetails;
}

/** `#/definitions/AssetGroupAccountClones`. */
export interface AssetGroupAccountClones {
  assetGroupWorks?: AssetGroupAccountClone[];
}

/** `#/definitions/PermissionProfileRequest`. */
export interface PermissionProfileRequest {
  id?: number;
  name?: string;
}

/** `#/definitions/GroupRequest`. */
export interface GroupRequest {
  id?: number;
  name?: string;
  type?: string;
}

/** `#/definitions/NewUserRequestAccountProperties`. */
export interface NewUserRequestAccountProperties {
  id: string;
  permission_profile?: PermissionProfileRequest;
  groups?: GroupRequest[];
  company_name?: string;
  job_title?: string;
}

/** `#/definitions/NewUserRequest`: the body of `POST /v2/organizations/{org}/users`. */
export interface NewUserRequest {
  accounts: NewUserRequestAccountProperties[];
  user_name?: string;
  first_name?: string;
  last_name?: string;
  email: string;
  default_account_id?: string;
  auto_activate_memberships?: boolean;
}

/** `#/definitions/NewAccountUserRequest`: the body of `POST …/accounts/{accountId}/users`. */
export interface NewAccountUserRequest {
  email: string;
  user_name: string;
  first_name?: string;
  last_name?: string;
  permission_profile?: PermissionProfileRequest;
  groups?: GroupRequest[];
  auto_activate_memberships?: boolean;
}

/** `#/definitions/NewUserResponse`. */
export interface NewUserResponse {
  id?: string;
  email?: string;
  user_name?: string;
}

/** `#/definitions/OrganizationUserResponse`: a user of the organisation in one account. */
export interface OrganizationUserResponse {
  id?: string;
  user_name?: string;
  first_name?: string;
  last_name?: string;
  user_status?: string;
  membership_status?: string;
  email?: string;
  membership_id?: string;
}

/** `#/definitions/PagingResponseProperties`. */
export interface PagingResponseProperties {
  result_set_size?: number;
  result_set_start_position?: number;
  result_set_end_position?: number;
  total_set_size?: number;
  next?: string;
}

/** `#/definitions/OrganizationUsersResponse`. */
export interface OrganizationUsersResponse {
  users?: OrganizationUserResponse[];
  paging?: PagingResponseProperties;
}

/** `#/definitions/OrganizationImportResponse`: a bulk import, as its status endpoint says it. */
export interface OrganizationImportResponse {
  id?: string;
  type?: string;
  status?: string;
  user_count?: number;
  processed_user_count?: number;
  added_user_count?: number;
  updated_user_count?: number;
  no_action_required_user_count?: number;
  error_count?: number;
  warning_count?: number;
  has_csv_results?: boolean;
  results_uri?: string;
}

/** `#/definitions/OrganizationExportResponse`: an export (account settings, users) and its CSV once done. */
export interface OrganizationExportResponse {
  id?: string;
  type?: string;
  status?: string;
  /** `OrganizationExportTaskResponse`: where the CSV is read. */
  results?: Array<{ id?: string; url?: string }>;
}

/** `#/definitions/OrganizationAccountSettingsImportResponse`: a settings import and its outcome per account. */
export interface OrganizationAccountSettingsImportResponse {
  id?: string;
  status?: string;
  /** `OrganizationAccountSettingsImportResult`. */
  results?: Array<{ processing_issues_by_account?: Array<Record<string, string>> }>;
}

/** The definitions above with the properties signrun reads of each: what the wire test checks against the Swagger. */
export const adminWireDefinitions = {
  AssetGroupAccountResponse: [
    'assetGroupId',
    'assetGroupName',
    'accountId',
    'accountName',
    'externalAccountId',
    'compliant',
    'siteId',
    'siteName',
  ],
  AssetGroupAccountsResponse: ['assetGroupAccounts'],
  SubscriptionPlanItemResponse: ['plan_item_id', 'plan_item_name'],
  OrganizationSubscriptionResponse: ['plan_id', 'plan_name', 'asset_group_id', 'subscription_id', 'modules'],
  'SubAccountCreateRequest.SubAccountCreationTargetAccountAdmin': ['email', 'firstName', 'lastName', 'locale'],
  SubAccountCreateRequest: ['subscriptionDetails', 'targetAccount'],
  'SubAccountCreateRequest.SubAccountCreationSubscription': ['id', 'planId', 'modules'],
  'SubAccountCreateRequest.SubAccountCreationTargetAccountDetails': ['name', 'countryCode', 'region', 'site', 'admin'],
  'Subscription.Provision.Model.AssetGroupWork': [
    'AssetGroupWorkId',
    'AssetGroupId',
    'AssetGroupWorkType',
    'Status',
    'TargetAccountId',
    'SourceAccountId',
    'Message',
  ],
  'Subscription.Provision.Model.AssetGroupWorkResult': ['AssetGroupWork', 'Message', 'Success'],
  SubAccountErrorDetails: ['error', 'errorDescription', 'isSystemError'],
  SubAccountCreateWorker: [
    'targetAccount',
    'assetGroupWorkId',
    'assetGroupId',
    'assetGroupWorkType',
    'status',
    'message',
    'createAccountProcessingFailureDetails',
  ],
  SubAccountCreateTargetAccount: ['id', 'name', 'countryCode', 'admin'],
  SubAccountCreateWorkerResponse: ['assetGroupWorks'],
  AssetGroupAccountClone: [
    'sourceAccount',
    'targetAccount',
    'assetGroupWorkId',
    'assetGroupId',
    'assetGroupWorkType',
    'status',
    'message',
    'cloneProcessingFailureDetails',
  ],
  AssetGroupAccountCloneSourceAccount: ['id', 'name'],
  AssetGroupAccountCloneTargetAccount: ['id', 'name', 'countryCode', 'region', 'site', 'admin'],
  AssetGroupAccountClones: ['assetGroupWorks'],
  PermissionProfileRequest: ['id', 'name'],
  GroupRequest: ['id', 'name', 'type'],
  NewUserRequestAccountProperties: ['id', 'permission_profile', 'groups', 'company_name', 'job_title'],
  NewUserRequest: [
    'accounts',
    'user_name',
    'first_name',
    'last_name',
    'email',
    'default_account_id',
    'auto_activate_memberships',
  ],
  NewUserResponse: ['id', 'email', 'user_name'],
  NewAccountUserRequest: [
    'email',
    'user_name',
    'first_name',
    'last_name',
    'permission_profile',
    'groups',
    'auto_activate_memberships',
  ],
  OrganizationUserResponse: [
    'id',
    'user_name',
    'first_name',
    'last_name',
    'user_status',
    'membership_status',
    'email',
    'membership_id',
  ],
  PagingResponseProperties: [
    'result_set_size',
    'result_set_start_position',
    'result_set_end_position',
    'total_set_size',
    'next',
  ],
  OrganizationUsersResponse: ['users', 'paging'],
  OrganizationExportResponse: ['id', 'type', 'status', 'results'],
  OrganizationExportTaskResponse: ['id', 'url'],
  OrganizationAccountSettingsImportResponse: ['id', 'status', 'results'],
  OrganizationImportResponse: [
    'id',
    'type',
    'status',
    'user_count',
    'processed_user_count',
    'added_user_count',
    'updated_user_count',
    'no_action_required_user_count',
    'error_count',
    'warning_count',
    'has_csv_results',
    'results_uri',
  ],
} as const satisfies Record<string, readonly string[]>;
