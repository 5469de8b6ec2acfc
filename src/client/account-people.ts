import type { AccountClient, CallOptions } from './esignature-client.js';

// The users, groups and permission profiles of one account (DocuSign's
// AccountPermissionProfiles_*, Groups_*, GroupUsers_*, Users_*), on the
// account client's base address. DocuSign answers one failing item of a bulk
// body inside the item (errorDetails) with a 2xx status: those are returned,
// never thrown, so the caller decides (a duplicate name after a race is not
// a failure: the runner lists again and takes what is there).

/** #/definitions/permissionProfile, as signrun reads it. */
export interface PermissionProfileWire {
  permissionProfileId: string;
  permissionProfileName: string;
  settings?: Record<string, unknown>;
  modifiedDateTime?: string;
}

/** #/definitions/group, as signrun reads it. */
export interface GroupWire {
  groupId?: string;
  groupName?: string;
  groupType?: string;
  permissionProfileId?: string;
  errorDetails?: { errorCode?: string; message?: string };
}

/** #/definitions/userInformation, as signrun reads it. */
export interface UserWire {
  userId?: string;
  userName?: string;
  email?: string;
  userStatus?: string;
  permissionProfileId?: string;
  permissionProfileName?: string;
  createdDateTime?: string;
  groupList?: GroupWire[];
  errorDetails?: { errorCode?: string; message?: string };
}

/** A new user (#/definitions/userInformation of newUsersDefinition). Users are invited: no password is sent. */
export interface NewUserWire {
  userName: string;
  email: string;
  permissionProfileId?: string;
  groupList?: Array<{ groupId: string }>;
}

const enc = encodeURIComponent;
/** Listings are paged by DocuSign; signrun asks pages of this size. */
const pageSize = 100;
/** More pages than an account's people need: a service that never ends its listing is stopped. */
const pageCap = 200;

/** The people of an account: what `account-contents-plan.ts` reads and `account-contents-pipeline.ts` writes. */
export class AccountPeople {
  readonly account: AccountClient;

  constructor(account: AccountClient) {
    this.account = account;
  }

  /** GET …/permission_profiles. */
  async listPermissionProfiles(options: CallOptions = {}): Promise<PermissionProfileWire[]> {
    const answer = await this.account.requestJson<{ permissionProfiles?: PermissionProfileWire[] }>(
      'GET',
      '/permission_profiles',
      'listPermissionProfiles',
      options,
    );
    return answer.permissionProfiles ?? [];
  }

  /**
   * POST …/permission_profiles. `repeatable`: the caller lists again after
   * a create, so a repeated one (names are unique per account) harms nothing.
   */
  async createPermissionProfile(
    profile: { permissionProfileName: string; settings: Record<string, string> },
    options: CallOptions = {},
  ): Promise<PermissionProfileWire> {
    return this.account.requestJson('POST', '/permission_profiles', 'createPermissionProfile', options, profile, true);
  }

  /** PUT …/permission_profiles/{id}: the settings given replace those of the same name. */
  async updatePermissionProfile(
    id: string,
    profile: { permissionProfileName: string; settings: Record<string, string> },
    options: CallOptions = {},
  ): Promise<PermissionProfileWire> {
    return this.account.requestJson(
      'PUT',
      `/permission_profiles/${enc(id)}`,
      'updatePermissionProfile',
      options,
      profile,
    );
  }

  /** DELETE …/permission_profiles/{id} (a duplicate a race made, which no user has yet). */
  async deletePermissionProfile(id: string, options: CallOptions = {}): Promise<void> {
    await this.account.client.request(
      {
        method: 'DELETE',
        url: `${this.account.baseUrl}/permission_profiles/${enc(id)}`,
        operation: 'deletePermissionProfile',
        idempotent: true,
      },
      options,
    );
  }

  /** GET …/groups, every page. */
  async listGroups(options: CallOptions = {}): Promise<GroupWire[]> {
    const groups: GroupWire[] = [];
    for (let page = 0; page < pageCap; page++) {
      const answer = await this.account.requestJson<{ groups?: GroupWire[]; totalSetSize?: string }>(
        'GET',
        `/groups?start_position=${page * pageSize}&count=${pageSize}`,
        'listGroups',
        options,
      );
      const got = answer.groups ?? [];
      groups.push(...got);
      if (got.length < pageSize || groups.length >= Number(answer.totalSetSize ?? groups.length)) break;
    }
    return groups;
  }

  /** POST …/groups ({groups: […]}); each answered group, with its errorDetails when it failed. */
  async createGroups(groups: Array<{ groupName: string; permissionProfileId?: string }>, options: CallOptions = {}) {
    const answer = await this.account.requestJson<{ groups?: GroupWire[] }>(
      'POST',
      '/groups',
      'createGroups',
      options,
      { groups },
      true,
    );
    return answer.groups ?? [];
  }

  /** PUT …/groups ({groups: […]}). */
  async updateGroups(
    groups: Array<{ groupId: string; groupName?: string; permissionProfileId?: string }>,
    options: CallOptions = {},
  ) {
    const answer = await this.account.requestJson<{ groups?: GroupWire[] }>('PUT', '/groups', 'updateGroups', options, {
      groups,
    });
    return answer.groups ?? [];
  }

  /** DELETE …/groups ({groups: […]}). */
  async deleteGroups(groupIds: string[], options: CallOptions = {}) {
    const body = { groups: groupIds.map((groupId) => ({ groupId })) };
    const answer = await this.account.requestJson<{ groups?: GroupWire[] }>(
      'DELETE',
      '/groups',
      'deleteGroups',
      options,
      body,
    );
    return answer.groups ?? [];
  }

  /** PUT (add) or DELETE (remove) …/groups/{groupId}/users. */
  async changeGroupUsers(groupId: string, userIds: string[], add: boolean, options: CallOptions = {}) {
    const body = { users: userIds.map((userId) => ({ userId })) };
    const answer = await this.account.requestJson<{ users?: UserWire[] }>(
      add ? 'PUT' : 'DELETE',
      `/groups/${enc(groupId)}/users`,
      add ? 'addGroupUsers' : 'removeGroupUsers',
      options,
      body,
    );
    return answer.users ?? [];
  }

  /** GET …/users?additional_info=true (their groups), every page; closed users are not listed. */
  async listUsers(options: CallOptions = {}): Promise<UserWire[]> {
    const users: UserWire[] = [];
    for (let page = 0; page < pageCap; page++) {
      const answer = await this.account.requestJson<{ users?: UserWire[]; totalSetSize?: string }>(
        'GET',
        `/users?additional_info=true&start_position=${page * pageSize}&count=${pageSize}`,
        'listUsers',
        options,
      );
      const got = answer.users ?? [];
      users.push(...got);
      if (got.length < pageSize || users.length >= Number(answer.totalSetSize ?? users.length)) break;
    }
    return users;
  }

  /** POST …/users ({newUsers: […]}): DocuSign invites each new user by email. */
  async createUsers(newUsers: NewUserWire[], options: CallOptions = {}): Promise<UserWire[]> {
    const answer = await this.account.requestJson<{ newUsers?: UserWire[] }>(
      'POST',
      '/users',
      'createUsers',
      options,
      { newUsers },
      true,
    );
    return answer.newUsers ?? [];
  }

  /** PUT …/users/{userId}. */
  async updateUser(
    userId: string,
    changes: { userName?: string; permissionProfileId?: string },
    options: CallOptions = {},
  ): Promise<UserWire> {
    return this.account.requestJson('PUT', `/users/${enc(userId)}`, 'updateUser', options, changes);
  }

  /** DELETE …/users ({users: […]}): DocuSign closes them. */
  async closeUsers(userIds: string[], options: CallOptions = {}): Promise<UserWire[]> {
    const body = { users: userIds.map((userId) => ({ userId })) };
    const answer = await this.account.requestJson<{ users?: UserWire[] }>(
      'DELETE',
      '/users',
      'closeUsers',
      options,
      body,
    );
    return answer.users ?? [];
  }
}
