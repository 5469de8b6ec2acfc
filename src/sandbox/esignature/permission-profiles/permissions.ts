import type { FastifyRequest } from 'fastify';
import type { UserRecord } from '../accounts/repository.js';
import type { PermissionProfileRecord, PermissionProfilesRepository } from './repository.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { principalOf } from '../request-helpers.js';

/**
 * What reading a user's profile takes of the sandbox's services: the group
 * names the part it reads, since services.ts, which assembles them all,
 * stands above the API groups.
 */
export interface ProfileStores {
  permissionProfiles: PermissionProfilesRepository;
}

/**
 * A user's permission profile: the one set on the user, else the account's
 * "Account Administrator" (an account's initial user and a seed's user are
 * its administrators, as on DocuSign).
 */
export function profileOfUser(sandbox: ProfileStores, user: UserRecord): PermissionProfileRecord {
  const own = user.permissionProfileId
    ? sandbox.permissionProfiles.get(user.accountId, user.permissionProfileId)
    : undefined;
  return own ?? sandbox.permissionProfiles.byName(user.accountId, 'Account Administrator')!;
}

/**
 * The settings of a permission profile the sandbox honours, because it has
 * the matching feature: `allowEnvelopeSending` (sending an envelope, on
 * creation or by sending a draft) and `allowAccountManagement` (changing the
 * account's users, groups and permission profiles). A profile that says
 * "false" gets DocuSign's USER_LACKS_PERMISSIONS; a setting left out allows.
 */
export type EnforcedSetting = 'allowEnvelopeSending' | 'allowAccountManagement';

/** Refuses the request when the caller's permission profile sets `setting` to false. */
export function requirePermission(request: FastifyRequest, setting: EnforcedSetting): void {
  const { user } = principalOf(request);
  // The one setting, as profileOfUser chooses the profile (without reading the whole profile).
  const value = request.server.sandbox.permissionProfiles.settingOfUser(
    user.accountId,
    user.permissionProfileId,
    setting,
  );
  if (typeof value === 'string' && value.toLowerCase() === 'false') throw apiErrors.userLacksPermissions();
}
