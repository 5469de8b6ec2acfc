import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountParams, groupParams, listGroupsQuery } from '../route-schemas.js';
import { apiBaseOf, principalOf, type AccountParams } from '../request-helpers.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import { groupJson, membersOf, pageOf, userInfoJson, userStatusOf } from '../users/people-json.js';
import { requirePermission } from '../permission-profiles/permissions.js';
import type { GroupRecord } from './repository.js';

interface GroupParams extends AccountParams {
  groupId: string;
}
interface PageQuery {
  start_position?: string;
  count?: string;
}
interface ListQuery extends PageQuery {
  group_type?: string;
  search_text?: string;
  include_usercount?: string;
}

/** The items of DocuSign's bulk bodies ({groups: […]}, {users: […]}), each an object. */
function itemsOf(body: unknown, list: 'groups' | 'users'): Array<Record<string, unknown>> {
  const items = lenientArray(lenientObject(body, list)?.[list], list);
  if (!items || items.length === 0) throw apiErrors.invalidBody(`'${list}' must list at least one item.`);
  return items.map((item, i) => lenientObject(item, `${list}[${i}]`) ?? {});
}

/** An item's error, in the item, as DocuSign answers one failing item of a bulk body (#/definitions/errorDetails). */
const itemError = (errorCode: string, message: string) => ({ errorDetails: { errorCode, message } });

function groupOf(request: FastifyRequest<{ Params: GroupParams }>): GroupRecord {
  const { account } = principalOf(request);
  const group = request.server.sandbox.groups.get(account.id, request.params.groupId);
  if (!group) throw apiErrors.invalidParameter('No group of this account has this groupId.');
  return group;
}

/**
 * Groups (Groups_*) with DocuSign's bulk bodies `{groups: […]}`: list,
 * create, update (name, permission profile), delete; and a group's users
 * (GroupUsers_*: list, add, remove). A failing item carries its own
 * errorDetails while the others are done, as DocuSign answers. DocuSign's
 * "Administrators" and "Everyone" are never deleted; Everyone holds every
 * open user. Changes need `allowAccountManagement`.
 */
export const groupRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: AccountParams; Querystring: ListQuery }>(
    '/accounts/:accountId/groups',
    { schema: { ...accountParams, ...listGroupsQuery } },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const q = request.query;
      const search = q.search_text?.toLowerCase();
      const groups = sandbox.groups
        .list(account.id)
        .filter((g) => !q.group_type || g.groupType.toLowerCase() === q.group_type.toLowerCase())
        .filter((g) => !search || g.name.toLowerCase().includes(search));
      const { items, position } = pageOf(groups, q);
      const withCount = q.include_usercount?.toLowerCase() !== 'false';
      return { groups: items.map((g) => groupJson(sandbox, g, withCount)), ...position };
    },
  );

  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/groups',
    { schema: accountParams },
    async (request, reply) => {
      requirePermission(request, 'allowAccountManagement');
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const groups = itemsOf(request.body, 'groups').map((item, i) => {
        const name = lenientString(item['groupName'], `groups[${i}].groupName`)?.trim();
        if (!name) return { ...itemError('INVALID_REQUEST_PARAMETER', "'groupName' is required."), groupName: '' };
        const profileId = lenientString(item['permissionProfileId'], `groups[${i}].permissionProfileId`);
        if (profileId && !sandbox.permissionProfiles.get(account.id, profileId))
          return {
            ...itemError(
              'INVALID_REQUEST_PARAMETER',
              'No permission profile of this account has this permissionProfileId.',
            ),
            groupName: name,
          };
        const created = sandbox.groups.insert(account.id, name, profileId ?? null);
        if (!created)
          return {
            ...itemError('INVALID_REQUEST_PARAMETER', `A group named "${name}" already exists in this account.`),
            groupName: name,
          };
        return groupJson(sandbox, created, true);
      });
      void reply.status(201);
      return { groups };
    },
  );

  app.put<{ Params: AccountParams }>('/accounts/:accountId/groups', { schema: accountParams }, async (request) => {
    requirePermission(request, 'allowAccountManagement');
    const { account } = principalOf(request);
    const { sandbox } = request.server;
    const groups = itemsOf(request.body, 'groups').map((item, i) => {
      const groupId = lenientString(item['groupId'], `groups[${i}].groupId`) ?? '';
      const group = sandbox.groups.get(account.id, groupId);
      if (!group)
        return { groupId, ...itemError('INVALID_REQUEST_PARAMETER', 'No group of this account has this groupId.') };
      const name = lenientString(item['groupName'], `groups[${i}].groupName`)?.trim();
      const profileId = lenientString(item['permissionProfileId'], `groups[${i}].permissionProfileId`);
      if (profileId && !sandbox.permissionProfiles.get(account.id, profileId))
        return {
          groupId,
          ...itemError(
            'INVALID_REQUEST_PARAMETER',
            'No permission profile of this account has this permissionProfileId.',
          ),
        };
      if (name && name.toLowerCase() !== group.name.toLowerCase()) {
        if (group.groupType !== 'customGroup')
          return {
            groupId,
            ...itemError('INVALID_REQUEST_PARAMETER', `"${group.name}" is DocuSign's own group: it keeps its name.`),
          };
        if (sandbox.groups.byName(account.id, name))
          return {
            groupId,
            ...itemError('INVALID_REQUEST_PARAMETER', `A group named "${name}" already exists in this account.`),
          };
      }
      const updated = {
        ...group,
        name: name || group.name,
        permissionProfileId: profileId ?? group.permissionProfileId,
      };
      sandbox.groups.update(updated);
      return groupJson(sandbox, updated, true);
    });
    return { groups };
  });

  app.delete<{ Params: AccountParams }>('/accounts/:accountId/groups', { schema: accountParams }, async (request) => {
    requirePermission(request, 'allowAccountManagement');
    const { account } = principalOf(request);
    const { sandbox } = request.server;
    const groups = itemsOf(request.body, 'groups').map((item, i) => {
      const groupId = lenientString(item['groupId'], `groups[${i}].groupId`) ?? '';
      const group = sandbox.groups.get(account.id, groupId);
      if (!group)
        return { groupId, ...itemError('INVALID_REQUEST_PARAMETER', 'No group of this account has this groupId.') };
      if (group.groupType !== 'customGroup')
        return {
          groupId,
          ...itemError('INVALID_REQUEST_PARAMETER', `"${group.name}" is DocuSign's own group: it cannot be deleted.`),
        };
      sandbox.groups.remove(group.id);
      return groupJson(sandbox, group, false);
    });
    return { groups };
  });

  app.get<{ Params: GroupParams; Querystring: PageQuery }>(
    '/accounts/:accountId/groups/:groupId/users',
    { schema: groupParams },
    async (request) => {
      const { sandbox } = request.server;
      const { items, position } = pageOf(membersOf(sandbox, groupOf(request)), request.query);
      return { users: items.map((u) => userInfoJson(sandbox, u, apiBaseOf(request))), ...position };
    },
  );

  /** PUT adds the users to the group, DELETE removes them; each answers the users it acted on. */
  const changeMembers = (add: boolean) => async (request: FastifyRequest<{ Params: GroupParams }>) => {
    requirePermission(request, 'allowAccountManagement');
    const { account } = principalOf(request);
    const { sandbox } = request.server;
    const group = groupOf(request);
    if (group.groupType === 'everyoneGroup')
      throw apiErrors.invalidParameter('"Everyone" holds every user of the account: its members are not changed.');
    const users = itemsOf(request.body, 'users').map((item, i) => {
      const userId = lenientString(item['userId'], `users[${i}].userId`)?.toLowerCase() ?? '';
      const user = sandbox.accounts.user(userId);
      if (!user || user.accountId !== account.id || userStatusOf(user) === 'Closed')
        return { userId, ...itemError('INVALID_USERID', 'No open user of this account has this userId.') };
      if (add) sandbox.groups.addMember(group.id, user.id);
      else sandbox.groups.removeMember(group.id, user.id);
      return userInfoJson(sandbox, user, apiBaseOf(request));
    });
    return { users, ...pageOf(users, {}).position };
  };
  app.put<{ Params: GroupParams }>(
    '/accounts/:accountId/groups/:groupId/users',
    { schema: groupParams },
    changeMembers(true),
  );
  app.delete<{ Params: GroupParams }>(
    '/accounts/:accountId/groups/:groupId/users',
    { schema: groupParams },
    changeMembers(false),
  );
};
