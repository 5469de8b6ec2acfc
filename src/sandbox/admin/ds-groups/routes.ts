import type { FastifyPluginAsync } from 'fastify';
import type { GroupRecord } from '../../repositories/groups.js';
import { accountOfOrganization, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import { bodyObject, requiredString } from '../admin-wire.js';
import { organizationPeople } from '../users/organization-users.js';
import { membershipStatus } from '../users/user-wire.js';

type AccountParams = { organizationId: string; accountId: string };
type GroupParams = AccountParams & { dsGroupId: string };
type PageQuery = { page?: string; page_size?: string };

/** A page of a list (page counts from 1). */
function pageOf<T>(items: T[], query: PageQuery): { page: number; page_size: number; total_count: number; items: T[] } {
  const page = Math.max(1, Number(query.page ?? 1) || 1);
  const size = Math.max(1, Number(query.page_size ?? 50) || 50);
  return { page, page_size: size, total_count: items.length, items: items.slice((page - 1) * size, page * size) };
}

/**
 * The Admin API's DS groups (DSGroups v2.1): the eSignature groups of an
 * organisation's account — the same groups as `/restapi/…/groups` — and
 * their members, by user id or email.
 */
export const dsGroupRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox } = context;
  const base = '/v2.1/organizations/:organizationId/accounts/:accountId/dsgroups';

  const accountOf = (params: AccountParams, request: Parameters<typeof organizationOf>[0]) => {
    const organization = organizationOf(request);
    const { account } = accountOfOrganization(context, organization, params.accountId);
    const external = context.organizations.accounts(organization.id).find((a) => a.accountId === account.id);
    return { organization, account, externalAccountId: external?.externalAccountId };
  };

  /** `#/definitions/DSGroupResponse`. */
  const groupWire = (group: GroupRecord, accountName: string, externalAccountId: number | undefined) => ({
    ds_group_id: group.id,
    account_id: group.accountId,
    source_product_name: 'ESign',
    group_id: group.id,
    group_name: group.name,
    is_admin: group.groupType === 'adminGroup',
    user_count: sandbox.groups.members(group.id).length,
    ...(externalAccountId !== undefined ? { external_account_id: externalAccountId } : {}),
    account_name: accountName,
    is_managed_by_scim: false,
  });

  const groupOf = (accountId: string, id: string) => {
    const group = sandbox.groups.get(accountId, id);
    if (!group) throw adminErrors.notFound(`DS group ${id}`);
    return group;
  };

  /** `#/definitions/DSGroupUserResponse` of a membership. */
  const userWire = (userId: string) => {
    const user = sandbox.accounts.user(userId);
    return {
      user_id: userId,
      account_id: user?.accountId,
      user_name: user?.userName,
      ...(user?.details?.['firstName'] ? { first_name: user.details['firstName'] } : {}),
      ...(user?.details?.['lastName'] ? { last_name: user.details['lastName'] } : {}),
      status: user ? membershipStatus(user) : 'unknown',
    };
  };

  /** The account's membership a user id (the person's or the membership's) or email designates. */
  const memberOf = (organizationId: string, accountId: string, ref: string) => {
    const person = organizationPeople(context, organizationId).find(
      (p) => p.email.toLowerCase() === ref.toLowerCase() || p.memberships.some((m) => m.id === ref.toLowerCase()),
    );
    return person?.memberships.find((m) => m.accountId === accountId && (m.closedAt ?? null) === null);
  };

  app.get<{ Params: AccountParams; Querystring: PageQuery }>(
    base,
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const { account, externalAccountId } = accountOf(request.params, request);
      const { items, ...page } = pageOf(sandbox.groups.list(account.id), request.query);
      return {
        ...page,
        account_id: account.id,
        ds_groups: items.map((g) => groupWire(g, account.name, externalAccountId)),
      };
    },
  );

  app.post<{ Params: AccountParams }>(base, { config: { adminScope: 'user_write' } }, async (request) => {
    const { account, externalAccountId } = accountOf(request.params, request);
    const name = requiredString(bodyObject(request.body, 'a DSGroupAddRequest'), 'group_name', 'group_name');
    if (sandbox.groups.byName(account.id, name))
      throw adminErrors.invalidRequest(`Account ${account.id} already has a group named ${name}.`);
    const group = sandbox.groups.insert(account.id, name, null);
    if (!group) throw adminErrors.invalidRequest(`The group ${name} could not be added.`);
    return groupWire(group, account.name, externalAccountId);
  });

  app.get<{ Params: GroupParams }>(`${base}/:dsGroupId`, { config: { adminScope: 'user_read' } }, async (request) => {
    const { account, externalAccountId } = accountOf(request.params, request);
    return groupWire(groupOf(account.id, request.params.dsGroupId), account.name, externalAccountId);
  });

  app.delete<{ Params: GroupParams }>(
    `${base}/:dsGroupId`,
    { config: { adminScope: 'user_write' } },
    async (request, reply) => {
      const { account } = accountOf(request.params, request);
      const group = groupOf(account.id, request.params.dsGroupId);
      if (group.groupType !== 'customGroup')
        throw adminErrors.invalidRequest(`${group.name} is one of DocuSign's own groups: it cannot be deleted.`);
      sandbox.groups.remove(group.id);
      return reply.status(204).send();
    },
  );

  app.get<{ Params: GroupParams; Querystring: PageQuery }>(
    `${base}/:dsGroupId/users`,
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const { account, externalAccountId } = accountOf(request.params, request);
      const group = groupOf(account.id, request.params.dsGroupId);
      const { items, ...page } = pageOf(sandbox.groups.members(group.id), request.query);
      return {
        group: groupWire(group, account.name, externalAccountId),
        group_users: { ...page, users: items.map(userWire) },
      };
    },
  );

  app.post<{ Params: GroupParams }>(
    `${base}/:dsGroupId/users`,
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const { organization, account, externalAccountId } = accountOf(request.params, request);
      const group = groupOf(account.id, request.params.dsGroupId);
      const body = bodyObject(request.body, 'a DSGroupUsersAddRequest');
      const ids = Array.isArray(body['user_ids']) ? body['user_ids'].map(String) : [];
      if (ids.length === 0) throw adminErrors.invalidRequest("'user_ids' must list the users to add.");
      const users = ids.map((id) => {
        const member = memberOf(organization.id, account.id, id);
        if (!member)
          return {
            user_id: id,
            error_details: {
              error: 'not_found',
              error_description: `No member of account ${account.id} has id ${id}.`,
            },
          };
        sandbox.groups.addMember(group.id, member.id);
        return userWire(member.id);
      });
      return {
        group: groupWire(group, account.name, externalAccountId),
        group_users: { is_success: users.every((u) => !('error_details' in u)), TotalCount: users.length, users },
      };
    },
  );

  app.delete<{ Params: GroupParams }>(
    `${base}/:dsGroupId/users`,
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const { organization, account } = accountOf(request.params, request);
      const group = groupOf(account.id, request.params.dsGroupId);
      const body = bodyObject(request.body, 'a DSGroupUsersRemoveRequest');
      const refs = [
        ...(Array.isArray(body['user_ids']) ? body['user_ids'].map(String) : []),
        ...(Array.isArray(body['user_emails']) ? body['user_emails'].map(String) : []),
      ];
      const failed = refs.flatMap((ref) => {
        const member = memberOf(organization.id, account.id, ref);
        if (!member || !sandbox.groups.members(group.id).includes(member.id))
          return [
            {
              user_id: ref,
              error_details: { error: 'not_found', error_description: `${ref} is not a member of ${group.name}.` },
            },
          ];
        sandbox.groups.removeMember(group.id, member.id);
        return [];
      });
      return { is_success: failed.length === 0, failed_users: failed };
    },
  );
};
