import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountParams, permissionProfileParams } from '../route-schemas.js';
import { apiBaseOf, principalOf, type AccountParams } from '../request-helpers.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { lenientObject, lenientString } from '../../platform/http/lenient.js';
import { permissionProfileJson, settingsOf, userStatusOf } from '../users/people-json.js';
import { profileOfUser, requirePermission } from './permissions.js';
import type { PermissionProfileRecord } from './repository.js';

interface ProfileParams extends AccountParams {
  permissionProfileId: string;
}
interface ProfileQuery {
  include?: string;
  move_users_to?: string;
}

const includeOf = (query: ProfileQuery) =>
  new Set(
    (query.include ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );

const profileMissing = () =>
  new ApiError(
    400,
    'INVALID_REQUEST_PARAMETER',
    'The request contained at least one invalid parameter. No permission profile of this account has this permissionProfileId.',
  );

function profileOf(request: FastifyRequest<{ Params: ProfileParams }>): PermissionProfileRecord {
  const { account } = principalOf(request);
  const profile = request.server.sandbox.permissionProfiles.get(account.id, request.params.permissionProfileId);
  if (!profile) throw profileMissing();
  return profile;
}

/**
 * Permission profiles (AccountPermissionProfiles_*): list, create, read,
 * update (settings given are merged over the profile's; a name alone renames
 * it, as DocuSign's eg026 does), delete (users still on it move to
 * `move_users_to`, else the delete is refused). Names are unique per
 * account; DocuSign's own three profiles are never deleted nor renamed.
 * Changes need `allowAccountManagement` (people/permissions.ts).
 */
export const permissionProfileRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: AccountParams; Querystring: ProfileQuery }>(
    '/accounts/:accountId/permission_profiles',
    { schema: { ...accountParams, querystring: permissionProfileParams.querystring } },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const include = includeOf(request.query);
      return {
        permissionProfiles: sandbox.permissionProfiles
          .list(account.id)
          .map((p) => permissionProfileJson(sandbox, p, include, apiBaseOf(request))),
      };
    },
  );

  app.post<{ Params: AccountParams; Querystring: ProfileQuery }>(
    '/accounts/:accountId/permission_profiles',
    { schema: { ...accountParams, querystring: permissionProfileParams.querystring } },
    async (request, reply) => {
      requirePermission(request, 'allowAccountManagement');
      const { account, user } = principalOf(request);
      const { sandbox } = request.server;
      const body = lenientObject(request.body, 'permissionProfile');
      const name = lenientString(body?.['permissionProfileName'], 'permissionProfileName')?.trim();
      if (!name) throw apiErrors.invalidBody("'permissionProfileName' is required.");
      const created = sandbox.permissionProfiles.insert(
        account.id,
        name,
        settingsOf(body?.['settings']),
        sandbox.clock.now(),
        user.userName,
      );
      if (!created)
        throw apiErrors.invalidParameter(`A permission profile named "${name}" already exists in this account.`);
      void reply.status(201);
      return permissionProfileJson(sandbox, created, includeOf(request.query), apiBaseOf(request));
    },
  );

  app.get<{ Params: ProfileParams; Querystring: ProfileQuery }>(
    '/accounts/:accountId/permission_profiles/:permissionProfileId',
    { schema: permissionProfileParams },
    async (request) =>
      permissionProfileJson(request.server.sandbox, profileOf(request), includeOf(request.query), apiBaseOf(request)),
  );

  app.put<{ Params: ProfileParams; Querystring: ProfileQuery }>(
    '/accounts/:accountId/permission_profiles/:permissionProfileId',
    { schema: permissionProfileParams },
    async (request) => {
      requirePermission(request, 'allowAccountManagement');
      const { account, user } = principalOf(request);
      const { sandbox } = request.server;
      const profile = profileOf(request);
      const body = lenientObject(request.body, 'permissionProfile') ?? {};
      const name = lenientString(body['permissionProfileName'], 'permissionProfileName')?.trim();
      if (name && name.toLowerCase() !== profile.name.toLowerCase()) {
        if (profile.builtIn)
          throw apiErrors.invalidParameter(`"${profile.name}" is DocuSign's own profile: it keeps its name.`);
        const other = sandbox.permissionProfiles.byName(account.id, name);
        if (other)
          throw apiErrors.invalidParameter(`A permission profile named "${name}" already exists in this account.`);
      }
      const updated: PermissionProfileRecord = {
        ...profile,
        name: name || profile.name,
        settings: { ...profile.settings, ...settingsOf(body['settings']) },
      };
      sandbox.permissionProfiles.update(updated, sandbox.clock.now(), user.userName);
      return permissionProfileJson(sandbox, profileOf(request), includeOf(request.query), apiBaseOf(request));
    },
  );

  app.delete<{ Params: ProfileParams; Querystring: ProfileQuery }>(
    '/accounts/:accountId/permission_profiles/:permissionProfileId',
    { schema: permissionProfileParams },
    async (request, reply) => {
      requirePermission(request, 'allowAccountManagement');
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const profile = profileOf(request);
      if (profile.builtIn)
        throw apiErrors.invalidParameter(`"${profile.name}" is DocuSign's own profile: it cannot be deleted.`);
      const moveTo = request.query.move_users_to;
      const target = moveTo ? sandbox.permissionProfiles.get(account.id, moveTo) : undefined;
      if (moveTo && (!target || target.id === profile.id))
        throw apiErrors.invalidParameter("'move_users_to' must name another permission profile of this account.");
      const users = sandbox.accounts
        .usersOf(account.id)
        .filter((u) => userStatusOf(u) !== 'Closed' && profileOfUser(sandbox, u).id === profile.id);
      if (users.length > 0 && !target)
        throw apiErrors.invalidParameter(
          `${users.length} user(s) still have this permission profile: give 'move_users_to' the profile they move to.`,
        );
      sandbox.db.transaction(() => {
        for (const u of users) sandbox.accounts.updateUser(u.id, { permissionProfileId: target!.id });
        for (const g of sandbox.groups.list(account.id))
          if (g.permissionProfileId === profile.id)
            sandbox.groups.update({ ...g, permissionProfileId: target?.id ?? null });
        sandbox.permissionProfiles.remove(profile.id);
      })();
      void reply.status(200);
      return '';
    },
  );
};
