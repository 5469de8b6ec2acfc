import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountOfOrganization, callerOf, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import {
  bodyObject,
  memberObject,
  memberString,
  queryFlag,
  requiredEmail,
  requiredString,
  sandboxSite,
} from '../admin-wire.js';
import type { TargetAccountRequest, WorkRecord } from './asset-group-works.js';
import { cloneWire, createWorkerWire, workResultWire } from './work-wire.js';

type OrgParams = { organizationId: string };
type WorkParams = OrgParams & { assetGroupId: string; assetGroupWorkId: string };

/** The request's targetAccount (DocuSign's name, countryCode and admin are what an account needs). */
function targetAccountOf(body: Record<string, unknown>): TargetAccountRequest {
  const target = memberObject(body, 'targetAccount', 'targetAccount');
  const admin = memberObject(target, 'admin', 'targetAccount.admin');
  return {
    name: requiredString(target, 'name', 'targetAccount.name'),
    countryCode: memberString(target, 'countryCode', 'targetAccount.countryCode'),
    region: memberString(target, 'region', 'targetAccount.region'),
    site: memberString(target, 'site', 'targetAccount.site'),
    admin: {
      email: requiredEmail(admin, 'email', 'targetAccount.admin.email'),
      firstName: memberString(admin, 'firstName', 'targetAccount.admin.firstName'),
      lastName: memberString(admin, 'lastName', 'targetAccount.admin.lastName'),
      locale: memberString(admin, 'locale', 'targetAccount.admin.locale'),
    },
  };
}

/** Since when a listing's works changed (`since_updated_date`); absent: all. */
function sinceOf(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw adminErrors.invalidRequest("'since_updated_date' must be a date (ISO 8601).");
  return ms;
}

/** A work of this organisation, of this kind, in this asset group; not_found otherwise. */
function workOf(context: AdminContext, request: FastifyRequest<{ Params: WorkParams }>, kind: WorkRecord['workType']) {
  const organization = organizationOf(request);
  const work = context.works.work(request.params.assetGroupWorkId);
  if (
    !work ||
    work.organizationId !== organization.id ||
    work.workType !== kind ||
    work.assetGroupId !== request.params.assetGroupId.toLowerCase()
  )
    throw adminErrors.notFound(`Asset group work ${request.params.assetGroupWorkId}`);
  return work;
}

/**
 * The Admin API's asset groups (ProvisionAssetGroup): the organisation's
 * accounts, account creation from a plan item (accountCreate) and account
 * cloning (accountClone), each asynchronous work with its status.
 */
export const assetGroupRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox } = context;

  app.get<{ Params: OrgParams; Querystring: { compliant?: string } }>(
    '/v2/organizations/:organizationId/assetGroups/accounts',
    { config: { adminScope: 'asset_group_account_read' } },
    async (request) => {
      const organization = organizationOf(request);
      // Every sandbox account is compliant (nothing in it breaks its plan): compliant=false lists none.
      const compliant = queryFlag(request.query.compliant);
      const names = new Map(
        context.organizations.planItems(organization.id).map((p) => [p.assetGroupId, p.assetGroupName]),
      );
      const accounts = compliant === false ? [] : context.organizations.accounts(organization.id);
      return {
        assetGroupAccounts: accounts
          .filter((a) => a.accountStatus !== 'deleted')
          .map((a) => ({
            assetGroupId: a.assetGroupId,
            assetGroupName: names.get(a.assetGroupId),
            accountId: a.accountId,
            accountName: a.accountName,
            externalAccountId: a.externalAccountId,
            compliant: true,
            ...sandboxSite,
          })),
      };
    },
  );

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/assetGroups/accountCreate',
    { config: { adminScope: 'organization_sub_account_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const body = bodyObject(request.body, 'a SubAccountCreateRequest');
      const subscription = memberObject(body, 'subscriptionDetails', 'subscriptionDetails');
      const subscriptionId = memberString(subscription, 'id', 'subscriptionDetails.id');
      const planId = memberString(subscription, 'planId', 'subscriptionDetails.planId');
      if (!subscriptionId && !planId)
        throw adminErrors.invalidRequest(
          "'subscriptionDetails' must name a plan item: its id and planId (GET …/planItems).",
        );
      const item = context.organizations
        .planItems(organization.id)
        .find(
          (p) =>
            (subscriptionId === undefined || p.subscriptionId === subscriptionId.toLowerCase()) &&
            (planId === undefined || p.planId === planId),
        );
      if (!item) throw adminErrors.planItemNotInOrganization(subscriptionId ?? planId ?? '');
      const target = targetAccountOf(body);
      const work = context.works.start(
        {
          organizationId: organization.id,
          assetGroupId: item.assetGroupId,
          workType: 'AccountAssetCreate',
          request: {
            targetAccount: target,
            subscription: { id: item.subscriptionId, planId: item.planId, planName: item.planName, modules: [] },
          },
          createdByUserId: callerOf(request).principal.user.id,
        },
        sandbox.clock.now(),
        context.workDelayMs,
      );
      return workResultWire(sandbox, work);
    },
  );

  app.get<{ Params: OrgParams; Querystring: { since_updated_date?: string } }>(
    '/v2/organizations/:organizationId/subAccountsCreated',
    { config: { adminScope: 'organization_sub_account_read' } },
    async (request) => ({
      assetGroupWorks: context.works
        .ofOrganization(organizationOf(request).id, 'AccountAssetCreate', sinceOf(request.query.since_updated_date))
        .map((w) => createWorkerWire(sandbox, w)),
    }),
  );

  app.get<{ Params: WorkParams }>(
    '/v2/organizations/:organizationId/assetGroup/:assetGroupId/subAccountCreated/:assetGroupWorkId',
    { config: { adminScope: 'organization_sub_account_read' } },
    async (request) => createWorkerWire(sandbox, workOf(context, request, 'AccountAssetCreate')),
  );

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/assetGroups/accountClone',
    { config: { adminScope: 'asset_group_account_clone_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const body = bodyObject(request.body, 'an AssetGroupAccountClone');
      const sourceId = requiredString(memberObject(body, 'sourceAccount', 'sourceAccount'), 'id', 'sourceAccount.id');
      const source = accountOfOrganization(context, organization, sourceId);
      const external = context.organizations.accounts(organization.id).find((a) => a.accountId === source.account.id);
      const work = context.works.start(
        {
          organizationId: organization.id,
          assetGroupId: source.assetGroupId,
          workType: 'AccountAssetClone',
          request: {
            targetAccount: targetAccountOf(body),
            sourceAccount: {
              id: source.account.id,
              name: source.account.name,
              externalAccountId: external?.externalAccountId ?? 0,
            },
          },
          sourceAccountId: source.account.id,
          createdByUserId: callerOf(request).principal.user.id,
        },
        sandbox.clock.now(),
        context.workDelayMs,
      );
      return cloneWire(sandbox, work);
    },
  );

  app.get<{ Params: OrgParams; Querystring: { since_updated_date?: string } }>(
    '/v2/organizations/:organizationId/assetGroups/accountClones',
    { config: { adminScope: 'asset_group_account_clone_read' } },
    async (request) => ({
      assetGroupWorks: context.works
        .ofOrganization(organizationOf(request).id, 'AccountAssetClone', sinceOf(request.query.since_updated_date))
        .map((w) => cloneWire(sandbox, w)),
    }),
  );

  app.get<{ Params: WorkParams }>(
    '/v2/organizations/:organizationId/assetGroups/:assetGroupId/accountClones/:assetGroupWorkId',
    { config: { adminScope: 'asset_group_account_clone_read' } },
    async (request) => cloneWire(sandbox, workOf(context, request, 'AccountAssetClone')),
  );
};
