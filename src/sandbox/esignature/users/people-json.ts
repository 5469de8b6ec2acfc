import type { AccountsRepository, UserRecord } from '../accounts/repository.js';
import type { GroupRecord, GroupsRepository } from '../groups/repository.js';
import type { PermissionProfileRecord } from '../permission-profiles/repository.js';
import { isoTime } from '../../platform/clock.js';
import { profileOfUser, type ProfileStores } from '../permission-profiles/permissions.js';
import { isAccountRoleSetting, type AccountRoleSettings } from '../../../envelope/account-role-settings.js';
import { lenientObject, lenientString } from '../../platform/http/lenient.js';

// The answers of the users, groups and permission profiles APIs, in the v2.1
// Swagger's shapes (#/definitions/userInformation, userInfo, group,
// permissionProfile): every value a string, as DocuSign sends them.

/** The stores the people's wire shapes read: a part of the sandbox's services (services.ts assembles them above the API groups). */
export interface PeopleStores extends ProfileStores {
  accounts: AccountsRepository;
  groups: GroupsRepository;
}

/** DocuSign's userStatus of a user. */
export function userStatusOf(user: UserRecord): 'Active' | 'ActivationSent' | 'Closed' {
  if (user.closedAt !== null && user.closedAt !== undefined) return 'Closed';
  return user.activated ? 'Active' : 'ActivationSent';
}

/** The users of an account that count as members of a group (Everyone: every open user). */
export function membersOf(sandbox: PeopleStores, group: GroupRecord): UserRecord[] {
  if (group.groupType === 'everyoneGroup')
    return sandbox.accounts.usersOf(group.accountId).filter((u) => userStatusOf(u) !== 'Closed');
  return sandbox.groups
    .members(group.id)
    .map((id) => sandbox.accounts.user(id))
    .filter((u): u is UserRecord => u !== undefined && userStatusOf(u) !== 'Closed');
}

/** The groups a user is in (Everyone always, while open). */
export function groupsOfUser(sandbox: PeopleStores, user: UserRecord): GroupRecord[] {
  const own = new Set(sandbox.groups.groupIdsOf(user.id));
  return sandbox.groups
    .list(user.accountId)
    .filter((g) => own.has(g.id) || (g.groupType === 'everyoneGroup' && userStatusOf(user) !== 'Closed'));
}

/** #/definitions/userInfo: a user as lists of members show one. */
export function userInfoJson(sandbox: PeopleStores, user: UserRecord, apiBase: string) {
  const account = sandbox.accounts.account(user.accountId);
  return {
    userId: user.id,
    userName: user.userName,
    email: user.email,
    userStatus: userStatusOf(user),
    userType: 'CompanyUser',
    accountId: user.accountId,
    ...(account ? { accountName: account.name } : {}),
    uri: `${apiBase}/accounts/${user.accountId}/users/${user.id}`,
  };
}

/** The detail under which a user added with an `activationAccessCode` keeps it, for its activation page only. */
export const activationAccessCodeDetail = 'activationAccessCode';

/** #/definitions/userInformation: a user as the users API shows one; `additional` adds its groups. */
export function userInformationJson(sandbox: PeopleStores, user: UserRecord, apiBase: string, additional = false) {
  const profile = profileOfUser(sandbox, user);
  const { [activationAccessCodeDetail]: _accessCode, ...details } = user.details ?? {};
  return {
    userId: user.id,
    userName: user.userName,
    email: user.email,
    ...details,
    userStatus: userStatusOf(user),
    userType: 'CompanyUser',
    isAdmin: profile.name === 'Account Administrator' ? 'True' : 'False',
    permissionProfileId: profile.id,
    permissionProfileName: profile.name,
    createdDateTime: isoTime(user.createdAt),
    userAddedToAccountDateTime: isoTime(user.createdAt),
    uri: `/users/${user.id}`,
    ...(additional ? { groupList: groupsOfUser(sandbox, user).map((g) => groupJson(sandbox, g, false)) } : {}),
  };
}

/** #/definitions/group; `usersCount` when asked (include_usercount). */
export function groupJson(sandbox: PeopleStores, group: GroupRecord, withCount: boolean) {
  return {
    groupId: group.id,
    groupName: group.name,
    groupType: group.groupType,
    ...(group.permissionProfileId ? { permissionProfileId: group.permissionProfileId } : {}),
    ...(withCount ? { usersCount: String(membersOf(sandbox, group).length) } : {}),
  };
}

/** #/definitions/permissionProfile; `include` as the query's (user_count, users). */
export function permissionProfileJson(
  sandbox: PeopleStores,
  profile: PermissionProfileRecord,
  include: ReadonlySet<string>,
  apiBase: string,
) {
  const users = () =>
    sandbox.accounts
      .usersOf(profile.accountId)
      .filter((u) => userStatusOf(u) !== 'Closed' && profileOfUser(sandbox, u).id === profile.id);
  return {
    permissionProfileId: profile.id,
    permissionProfileName: profile.name,
    modifiedDateTime: isoTime(profile.modifiedAt),
    ...(profile.modifiedBy ? { modifiedByUsername: profile.modifiedBy } : {}),
    settings: profile.settings,
    ...(include.has('user_count') ? { userCount: String(users().length) } : {}),
    ...(include.has('users') ? { users: users().map((u) => userInformationJson(sandbox, u, apiBase)) } : {}),
  };
}

/**
 * The settings of a request body: DocuSign's names kept (any scalar as a
 * string: eg024 sends a number), the ones it does not know dropped as
 * DocuSign drops them.
 */
export function settingsOf(value: unknown): AccountRoleSettings {
  const body = lenientObject(value, 'settings') ?? {};
  const settings: AccountRoleSettings = {};
  for (const [name, raw] of Object.entries(body)) {
    if (!isAccountRoleSetting(name)) continue;
    const text = lenientString(raw, `settings.${name}`);
    if (text !== undefined) settings[name] = text;
  }
  return settings;
}

/** A page of a listing, with DocuSign's position fields (count and start_position of the query). */
export function pageOf<T>(items: T[], query: { count?: string; start_position?: string }) {
  const start = query.start_position ? Number(query.start_position) : 0;
  const count = query.count ? Number(query.count) : 100;
  const page = items.slice(start, start + count);
  return {
    items: page,
    position: {
      resultSetSize: String(page.length),
      totalSetSize: String(items.length),
      startPosition: String(start),
      endPosition: String(Math.max(start + page.length - 1, 0)),
    },
  };
}
