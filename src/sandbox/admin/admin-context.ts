import type { FastifyRequest } from 'fastify';
import type { AdminServices } from './admin-services.js';
import type { Principal } from '../esignature/authentication/authenticate.js';
import {
  organizationsStore,
  type OrganizationRecord,
  type OrganizationsStore,
} from './organizations/organizations-store.js';
import { assetGroupWorks, type AssetGroupWorks } from './asset-groups/asset-group-works.js';
import { accountSettingsStore, type AccountSettingsStore } from '../esignature/accounts/settings-store.js';
import { adminErrors } from './admin-error.js';
import { bulkJobs, type BulkJobs } from './bulk/bulk-jobs.js';

/** The caller of an Admin API route: who, and which scopes their token was granted. */
export interface AdminCaller {
  principal: Principal;
  scopes: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope an Admin API route needs (the Swagger's `accessCode` of its operation). */
    adminScope?: string;
  }
  interface FastifyRequest {
    /** The Admin API's caller; null before the admin plugin's hook has run. */
    adminCaller: AdminCaller | null;
    /** The organisation of the path's {organizationId}, checked against the caller. */
    adminOrganization: OrganizationRecord | null;
  }
}

/** What the Admin API's groups share: the part of the sandbox's services they use and the Admin API's stores. */
export interface AdminContext {
  sandbox: AdminServices;
  organizations: OrganizationsStore;
  works: AssetGroupWorks;
  settings: AccountSettingsStore;
  /** Bulk imports and exports (users, account settings). */
  jobs: BulkJobs;
  /** The origin of addresses the Admin API hands out (CSV results). */
  origin: () => string;
  /** How long account creation, cloning and bulk jobs take, ms of the sandbox's clock. */
  workDelayMs: number;
}

export function createAdminContext(sandbox: AdminServices, workDelayMs: number, origin: () => string): AdminContext {
  const organizations = organizationsStore(sandbox.db);
  const settings = accountSettingsStore(sandbox.db);
  return {
    sandbox,
    organizations,
    settings,
    works: assetGroupWorks(sandbox, organizations, settings, origin),
    jobs: bulkJobs(sandbox.db),
    origin,
    workDelayMs,
  };
}

/** The organisation of the path, checked by the admin plugin's hook. */
export function organizationOf(request: FastifyRequest): OrganizationRecord {
  const organization = request.adminOrganization;
  if (!organization) throw adminErrors.unknownOrganization('(none)');
  return organization;
}

/** The caller, authenticated by the admin plugin's hook. */
export function callerOf(request: FastifyRequest): AdminCaller {
  const caller = request.adminCaller;
  if (!caller) throw adminErrors.unauthorized('No access token was sent.');
  return caller;
}

/** An account of the organisation, or the Admin API's error for one outside it. */
export function accountOfOrganization(context: AdminContext, organization: OrganizationRecord, accountId: string) {
  const membership = context.organizations.organizationOfAccount(accountId);
  if (membership?.organizationId !== organization.id) throw adminErrors.accountNotInOrganization(accountId);
  const account = context.sandbox.accounts.account(accountId.toLowerCase());
  if (!account || account.status === 'deleted') throw adminErrors.accountNotInOrganization(accountId);
  return { account, assetGroupId: membership.assetGroupId };
}
