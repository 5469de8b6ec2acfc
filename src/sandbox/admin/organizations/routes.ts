import type { FastifyPluginAsync } from 'fastify';
import { callerOf, organizationOf, type AdminContext } from '../admin-context.js';
import { adminTime, sandboxSite } from '../admin-wire.js';
import type { OrganizationRecord } from './organizations-store.js';

/**
 * The Admin API's organisations: those the caller administers, and each
 * one's plan items (the plans its accounts are created from).
 */
export const organizationRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  /** `#/definitions/OrganizationResponse`. */
  const organizationWire = (organization: OrganizationRecord) => ({
    id: organization.id,
    name: organization.name,
    ...(organization.description !== null ? { description: organization.description } : {}),
    ...(organization.defaultAccountId !== null ? { default_account_id: organization.defaultAccountId } : {}),
    created_on: adminTime(organization.createdAt),
    ...(organization.createdBy !== null ? { created_by: organization.createdBy } : {}),
    accounts: context.organizations
      .accounts(organization.id)
      .filter((a) => a.accountStatus !== 'deleted')
      .map((a) => ({
        id: a.accountId,
        name: a.accountName,
        external_account_id: a.externalAccountId,
        site_id: sandboxSite.siteId,
      })),
  });

  app.get('/v2/organizations', { config: { adminScope: 'organization_read' } }, async (request) => ({
    organizations: context.organizations.administeredBy(callerOf(request).principal.user.email).map(organizationWire),
  }));

  app.get<{ Params: { organizationId: string } }>(
    '/v2/organizations/:organizationId/planItems',
    { config: { adminScope: 'organization_sub_account_read' } },
    async (request) => {
      const organization = organizationOf(request);
      const accounts = context.organizations.accounts(organization.id).filter((a) => a.accountStatus !== 'deleted');
      return context.organizations.planItems(organization.id).map((item) => ({
        plan_id: item.planId,
        plan_name: item.planName,
        associated_accounts_count: accounts.filter((a) => a.assetGroupId === item.assetGroupId).length,
        asset_group_name: item.assetGroupName,
        asset_group_id: item.assetGroupId,
        subscription_name: item.subscriptionName,
        subscription_id: item.subscriptionId,
        modules: item.modules,
      }));
    },
  );
};
