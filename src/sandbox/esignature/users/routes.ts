import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountParams, listUsersQuery, userParams } from '../route-schemas.js';
import { apiBaseOf, originOf, principalOf, type AccountParams } from '../request-helpers.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { isoTime } from '../../platform/clock.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import {
  activationAccessCodeDetail,
  groupsOfUser,
  pageOf,
  userInfoJson,
  userInformationJson,
  userStatusOf,
  type PeopleStores,
} from './people-json.js';
import { requirePermission } from '../permission-profiles/permissions.js';
import { hashPassword } from '../../platform/password-hash.js';
import { hashToken, newToken } from '../authentication/view-tokens.js';
import type { UserRecord } from '../accounts/repository.js';

interface UserParams extends AccountParams {
  userId: string;
}
interface UsersQuery {
  additional_info?: string;
  email?: string;
  email_substring?: string;
  user_name_substring?: string;
  status?: string;
  group_id?: string;
  not_group_id?: string;
  start_position?: string;
  count?: string;
}

/** What the users API keeps of a user beyond name, email and profile (#/definitions/userInformation). */
const detailFields = [
  'firstName',
  'middleName',
  'lastName',
  'suffixName',
  'title',
  'jobTitle',
  'company',
  'countryCode',
] as const;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const itemError = (errorCode: string, message: string) => ({ errorDetails: { errorCode, message } });

function detailsOf(item: Record<string, unknown>, base: Record<string, string> = {}): Record<string, string> {
  const details = { ...base };
  for (const field of detailFields) {
    const value = lenientString(item[field], field);
    if (value !== undefined) details[field] = value;
  }
  return details;
}

/** The profile a body names, by id or by name; undefined: none named; null: named but not in the account. */
function namedProfile(sandbox: PeopleStores, accountId: string, item: Record<string, unknown>) {
  const id = lenientString(item['permissionProfileId'], 'permissionProfileId');
  const name = lenientString(item['permissionProfileName'], 'permissionProfileName');
  if (id) return sandbox.permissionProfiles.get(accountId, id) ?? null;
  if (name) return sandbox.permissionProfiles.byName(accountId, name) ?? null;
  return undefined;
}

/** An open or closed user of the caller's account by id; INVALID_USERID otherwise. */
function userOf(request: FastifyRequest, userId: string): UserRecord {
  const { account } = principalOf(request);
  const user = request.server.sandbox.accounts.user(userId.toLowerCase());
  if (!user || user.accountId !== account.id) throw apiErrors.invalidUserId();
  return user;
}

/**
 * Users (Users_*): list with DocuSign's filters (email, substrings, status —
 * closed users only when asked —, group_id, not_group_id, additional_info
 * for their groups), add (`newUsers`: each new user gets an invitation in
 * the outbox whose link activates them; an email already open in the account
 * is USER_ALREADY_EXISTS_IN_ACCOUNT on that item; a closed one is reopened),
 * read, update (one or in bulk), and delete, which closes the user as
 * DocuSign does (kept, listed as Closed, no longer able to log in, out of
 * its groups). Changes need `allowAccountManagement`.
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const userRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: AccountParams; Querystring: UsersQuery }>(
    '/accounts/:accountId/users',
    { schema: { ...accountParams, ...listUsersQuery } },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const q = request.query;
      const statuses = q.status ? new Set(q.status.split(',').map((s) => s.trim().toLowerCase())) : undefined;
      const lower = (s?: string) => s?.toLowerCase();
      const users = sandbox.accounts.usersOf(account.id).filter((u) => {
        const status = userStatusOf(u).toLowerCase();
        if (statuses ? !statuses.has(status) : status === 'closed') return false;
        if (q.email && u.email.toLowerCase() !== lower(q.email)) return false;
        if (q.email_substring && !u.email.toLowerCase().includes(lower(q.email_substring)!)) return false;
        if (q.user_name_substring && !u.userName.toLowerCase().includes(lower(q.user_name_substring)!)) return false;
        const groups = () => groupsOfUser(sandbox, u).map((g) => g.id);
        if (q.group_id && !groups().includes(q.group_id)) return false;
        if (q.not_group_id && groups().includes(q.not_group_id)) return false;
        return true;
      });
      const { items, position } = pageOf(users, q);
      const additional = q.additional_info?.toLowerCase() === 'true';
      return { users: items.map((u) => userInformationJson(sandbox, u, apiBaseOf(request), additional)), ...position };
    },
  );

  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/users',
    { schema: accountParams },
    async (request, reply) => {
      requirePermission(request, 'allowAccountManagement');
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const entries = lenientArray(lenientObject(request.body, 'newUsersDefinition')?.['newUsers'], 'newUsers');
      if (!entries || entries.length === 0) throw apiErrors.invalidBody("'newUsers' must list at least one user.");
      const newUsers = [];
      for (const [i, entry] of entries.entries()) {
        const item = lenientObject(entry, `newUsers[${i}]`) ?? {};
        const email = lenientString(item['email'], `newUsers[${i}].email`)?.trim() ?? '';
        const userName = lenientString(item['userName'], `newUsers[${i}].userName`)?.trim() ?? '';
        const failed = (code: string, message: string) => ({
          userName,
          email,
          createdDateTime: '0001-01-01T08:00:00.0000000Z',
          ...itemError(code, message),
        });
        if (!emailPattern.test(email)) {
          newUsers.push(failed('INVALID_EMAIL_ADDRESS_FOR_USER', `'email' must be an email address.`));
          continue;
        }
        if (!userName) {
          newUsers.push(failed('INVALID_USERNAME_FOR_USER', "'userName' is required."));
          continue;
        }
        const profile = namedProfile(sandbox, account.id, item);
        if (profile === null) {
          newUsers.push(
            failed('INVALID_REQUEST_PARAMETER', 'No permission profile of this account has this id or name.'),
          );
          continue;
        }
        const sameEmail = sandbox.accounts
          .usersOf(account.id)
          .filter((u) => u.email.toLowerCase() === email.toLowerCase());
        if (sameEmail.some((u) => userStatusOf(u) !== 'Closed')) {
          newUsers.push(
            failed('USER_ALREADY_EXISTS_IN_ACCOUNT', 'Username and email combination already exists for this account.'),
          );
          continue;
        }
        const password = lenientString(item['password'], `newUsers[${i}].password`);
        // Asked for on the activation page (kept with the user's details, never shown: people-json omits it).
        const accessCode = lenientString(item['activationAccessCode'], `newUsers[${i}].activationAccessCode`)?.trim();
        const details = { ...detailsOf(item), ...(accessCode ? { [activationAccessCodeDetail]: accessCode } : {}) };
        const passwordHash = password ? await hashPassword(password) : '';
        const groupIds = (lenientArray(item['groupList'], `newUsers[${i}].groupList`) ?? [])
          .map((g, j) => lenientString(lenientObject(g, `groupList[${j}]`)?.['groupId'], 'groupId'))
          .filter((id): id is string => id !== undefined && sandbox.groups.get(account.id, id) !== undefined);
        const now = sandbox.clock.now();
        const token = newToken();
        const link = `${originOf(request)}/sandbox/activate/${token}`;
        const profileId = (profile ?? sandbox.permissionProfiles.byName(account.id, 'DocuSign Sender')!).id;
        const closed = sameEmail[0];
        const userId = closed?.id ?? randomUUID();
        sandbox.db.transaction(() => {
          if (closed) {
            sandbox.accounts.reopenUser(closed.id);
            sandbox.accounts.updateUser(closed.id, {
              userName,
              email,
              permissionProfileId: profileId,
              details,
            });
          } else
            sandbox.accounts.insertUser({
              id: userId,
              accountId: account.id,
              userName,
              email,
              passwordHash,
              activated: false,
              createdAt: now,
              permissionProfileId: profileId,
              details,
            });
          for (const groupId of groupIds) sandbox.groups.addMember(groupId, userId);
          sandbox.accounts.insertActivation(hashToken(token), account.id, userId, now);
          sandbox.outbox.add({
            kind: 'user-activation',
            to: email,
            toName: userName,
            subject: `You have been added to ${account.name}`,
            body: `Hello ${userName},\n\nYou were added as a user of the account "${account.name}". Open this link to activate your membership:\n${link}\n\nYour user id: ${userId}`,
            links: [link],
            accountId: account.id,
          });
        })();
        const user = sandbox.accounts.user(userId)!;
        const shown = userInformationJson(sandbox, user, apiBaseOf(request));
        newUsers.push({
          userId,
          userName,
          email,
          userStatus: shown.userStatus,
          permissionProfileId: shown.permissionProfileId,
          permissionProfileName: shown.permissionProfileName,
          createdDateTime: isoTime(user.createdAt),
          membershipId: userId,
          uri: `/users/${userId}`,
        });
      }
      void reply.status(201);
      return { newUsers };
    },
  );

  /** Applies one userInformation body to a user; an error message when it cannot. */
  function update(sandbox: PeopleStores, user: UserRecord, item: Record<string, unknown>): string | undefined {
    const email = lenientString(item['email'], 'email')?.trim();
    if (email !== undefined && !emailPattern.test(email)) return "'email' must be an email address.";
    const profile = namedProfile(sandbox, user.accountId, item);
    if (profile === null) return 'No permission profile of this account has this id or name.';
    const userName = lenientString(item['userName'], 'userName')?.trim();
    sandbox.accounts.updateUser(user.id, {
      ...(userName ? { userName } : {}),
      ...(email ? { email } : {}),
      ...(profile ? { permissionProfileId: profile.id } : {}),
      details: detailsOf(item, user.details),
    });
    return undefined;
  }

  app.get<{ Params: UserParams; Querystring: UsersQuery }>(
    '/accounts/:accountId/users/:userId',
    { schema: userParams },
    async (request) =>
      userInformationJson(
        request.server.sandbox,
        userOf(request, request.params.userId),
        apiBaseOf(request),
        request.query.additional_info?.toLowerCase() === 'true',
      ),
  );

  app.put<{ Params: UserParams }>('/accounts/:accountId/users/:userId', { schema: userParams }, async (request) => {
    requirePermission(request, 'allowAccountManagement');
    const { sandbox } = request.server;
    const user = userOf(request, request.params.userId);
    const problem = update(sandbox, user, lenientObject(request.body, 'userInformation') ?? {});
    if (problem) throw apiErrors.invalidParameter(problem);
    return userInformationJson(sandbox, sandbox.accounts.user(user.id)!, apiBaseOf(request));
  });

  app.put<{ Params: AccountParams }>('/accounts/:accountId/users', { schema: accountParams }, async (request) => {
    requirePermission(request, 'allowAccountManagement');
    const { account } = principalOf(request);
    const { sandbox } = request.server;
    const items = lenientArray(lenientObject(request.body, 'userInformationList')?.['users'], 'users') ?? [];
    const users = items.map((entry, i) => {
      const item = lenientObject(entry, `users[${i}]`) ?? {};
      const userId = lenientString(item['userId'], `users[${i}].userId`)?.toLowerCase() ?? '';
      const user = sandbox.accounts.user(userId);
      if (!user || user.accountId !== account.id)
        return { userId, ...itemError('INVALID_USERID', 'No user of this account has this userId.') };
      const problem = update(sandbox, user, item);
      if (problem) return { userId, ...itemError('INVALID_REQUEST_PARAMETER', problem) };
      return userInformationJson(sandbox, sandbox.accounts.user(user.id)!, apiBaseOf(request));
    });
    return { users, ...pageOf(users, {}).position };
  });

  app.delete<{ Params: AccountParams }>('/accounts/:accountId/users', { schema: accountParams }, async (request) => {
    requirePermission(request, 'allowAccountManagement');
    const { account, user: caller } = principalOf(request);
    const { sandbox } = request.server;
    const items = lenientArray(lenientObject(request.body, 'userInfoList')?.['users'], 'users') ?? [];
    if (items.length === 0) throw apiErrors.invalidBody("'users' must list the users to close.");
    const users = items.map((entry, i) => {
      const userId =
        lenientString(lenientObject(entry, `users[${i}]`)?.['userId'], `users[${i}].userId`)?.toLowerCase() ?? '';
      const user = sandbox.accounts.user(userId);
      if (!user || user.accountId !== account.id)
        return { userId, ...itemError('INVALID_USERID', 'No user of this account has this userId.') };
      if (user.id === caller.id)
        return { userId, ...itemError('INVALID_USERID', 'A user cannot close their own membership.') };
      sandbox.db.transaction(() => {
        sandbox.accounts.closeUser(user.id, sandbox.clock.now());
        for (const groupId of sandbox.groups.groupIdsOf(user.id)) sandbox.groups.removeMember(groupId, user.id);
      })();
      return userInfoJson(sandbox, sandbox.accounts.user(user.id)!, apiBaseOf(request));
    });
    return { users, ...pageOf(users, {}).position };
  });
};
