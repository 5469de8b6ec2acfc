import type { AdminServices } from '../admin-services.js';
import type { WorkRecord } from './asset-group-works.js';
import { adminTime } from '../admin-wire.js';

/** Who asked for the work, as the wire names them. */
function requester(sandbox: AdminServices, work: WorkRecord) {
  const user = sandbox.accounts.user(work.createdByUserId);
  return { createdByName: user?.userName, createdByEmail: user?.email };
}

function failureOf(work: WorkRecord) {
  return work.failure === null
    ? undefined
    : { error: work.failure.error, errorDescription: work.failure.errorDescription, isSystemError: false };
}

function targetAccount(work: WorkRecord) {
  const t = work.request.targetAccount;
  return {
    ...(work.targetAccountId !== null ? { id: work.targetAccountId } : {}),
    name: t.name,
    ...(t.region !== undefined ? { region: t.region } : {}),
    ...(t.countryCode !== undefined ? { countryCode: t.countryCode } : {}),
    ...(t.site !== undefined ? { site: t.site } : {}),
    admin: {
      email: t.admin.email,
      ...(t.admin.firstName !== undefined ? { firstName: t.admin.firstName } : {}),
      ...(t.admin.lastName !== undefined ? { lastName: t.admin.lastName } : {}),
      ...(t.admin.locale !== undefined ? { locale: t.admin.locale } : {}),
    },
  };
}

/** What a clone and a creation both say of their work: its ids, kind, status and who asked for it. */
function workStatus(sandbox: AdminServices, work: WorkRecord) {
  return {
    assetGroupWorkId: work.id,
    assetGroupId: work.assetGroupId,
    assetGroupWorkType: work.workType,
    status: work.status,
    attempts: work.status === 'Pending' ? 0 : 1,
    createdDate: adminTime(work.createdAt),
    ...requester(sandbox, work),
    message: messageOf(work),
  };
}

/** `#/definitions/AssetGroupAccountClone`: a clone and its status. */
export function cloneWire(sandbox: AdminServices, work: WorkRecord) {
  const source = work.request.sourceAccount;
  return {
    sourceAccount: {
      id: work.sourceAccountId ?? undefined,
      ...(source ? { externalAccountId: source.externalAccountId, name: source.name } : {}),
      site: 'DEMO',
    },
    targetAccount: targetAccount(work),
    ...workStatus(sandbox, work),
    ...(work.failure ? { cloneProcessingFailureDetails: failureOf(work) } : {}),
  };
}

/** `#/definitions/SubAccountCreateWorker`: an account creation and its status. */
export function createWorkerWire(sandbox: AdminServices, work: WorkRecord) {
  const subscription = work.request.subscription;
  return {
    targetAccount: targetAccount(work),
    subscriptionDetails: subscription
      ? { id: subscription.id, planId: subscription.planId, planName: subscription.planName, modules: [] }
      : undefined,
    ...workStatus(sandbox, work),
    ...(work.failure ? { createAccountProcessingFailureDetails: failureOf(work) } : {}),
  };
}

/** `#/definitions/Subscription.Provision.Model.AssetGroupWorkResult`: what accountCreate answers (PascalCase on DocuSign's wire). */
export function workResultWire(sandbox: AdminServices, work: WorkRecord) {
  const t = work.request.targetAccount;
  const user = sandbox.accounts.user(work.createdByUserId);
  const admin = {
    EmailAddress: t.admin.email,
    FirstName: t.admin.firstName,
    LastName: t.admin.lastName,
    Locale: t.admin.locale,
  };
  return {
    AssetGroupWork: {
      AssetGroupWorkId: work.id,
      AssetGroupId: work.assetGroupId,
      AssetGroupWorkType: work.workType,
      Status: work.status,
      TargetAccountId: work.targetAccountId ?? undefined,
      CreateSubAccountDetails: {
        SubscriptionDetails: work.request.subscription
          ? { SubscriptionId: work.request.subscription.id, PlanId: work.request.subscription.planId, Modules: [] }
          : undefined,
        Name: t.name,
        CountryCode: t.countryCode,
        Region: t.region,
        Site: t.site,
        AdminUser: admin,
      },
      Attempts: 0,
      Message: messageOf(work),
      CreatedByName: user?.userName,
      CreatedByEmail: user?.email,
      CreatedBy: work.createdByUserId,
      CreatedDate: adminTime(work.createdAt),
      UpdatedDate: adminTime(work.updatedAt),
    },
    Message: 'The account will be created: follow its status at subAccountCreated.',
    Success: true,
  };
}

function messageOf(work: WorkRecord): string {
  if (work.status === 'Completed') return `Account ${work.targetAccountId} is ready.`;
  if (work.status === 'ProcessingError') return work.failure?.errorDescription ?? 'The work failed.';
  return 'The work is queued.';
}
