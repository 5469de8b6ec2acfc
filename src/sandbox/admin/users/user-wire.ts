import type { UserRecord } from '../../repositories/accounts.js';
import type { AdminContext } from '../admin-context.js';
import { adminTime, sandboxSite } from '../admin-wire.js';
import { permissionProfileOf, type OrganizationPerson } from './organization-users.js';

const numeric = (id: string): number => Number(id);

/** A membership's status on the wire: active, pending (not activated yet) or closed. */
export function membershipStatus(user: UserRecord): 'active' | 'pending' | 'closed' {
  if ((user.closedAt ?? null) !== null) return 'closed';
  return user.activated ? 'active' : 'pending';
}

/** The person's status: active when a membership is, closed when all are, else pending. */
export function personStatus(person: OrganizationPerson): string {
  const statuses = person.memberships.map(membershipStatus);
  if (statuses.includes('active')) return 'active';
  return statuses.every((s) => s === 'closed') ? 'closed' : 'pending';
}

/** `#/definitions/MemberGroupResponse` of the user's groups in their account. */
export function memberGroups(context: AdminContext, user: UserRecord) {
  const ids = new Set(context.sandbox.groups.groupIdsOf(user.id));
  return context.sandbox.groups
    .list(user.accountId)
    .filter(
      (g) =>
        ids.has(g.id) || g.groupType === 'everyoneGroup' || (g.groupType === 'adminGroup' && isAdmin(context, user)),
    )
    .map((g) => ({ id: numeric(g.id), name: g.name, type: g.groupType }));
}

function isAdmin(context: AdminContext, user: UserRecord): boolean {
  return permissionProfileOf(context, user).name === 'Account Administrator';
}

/** `#/definitions/MembershipResponse`. */
export function membershipWire(context: AdminContext, organizationId: string, user: UserRecord) {
  const account = context.organizations.accounts(organizationId).find((a) => a.accountId === user.accountId);
  const profile = permissionProfileOf(context, user);
  return {
    id: user.id,
    email: user.email,
    account_id: user.accountId,
    external_account_id: account ? String(account.externalAccountId) : undefined,
    account_name: account?.accountName,
    is_external_account: false,
    status: membershipStatus(user),
    permission_profile: { id: numeric(profile.id), name: profile.name },
    created_on: adminTime(user.createdAt),
    groups: memberGroups(context, user),
    is_admin: isAdmin(context, user),
  };
}

/** `#/definitions/UserDrilldownResponse`: a person with their memberships. */
export function drilldownWire(context: AdminContext, organizationId: string, person: OrganizationPerson) {
  const first = person.memberships[0]!;
  const details = first.details ?? {};
  const admins = context.organizations.administeredBy(person.email).some((o) => o.id === organizationId);
  const defaultAccount = context.organizations.accounts(organizationId).find((a) => a.accountId === first.accountId);
  return {
    id: person.id,
    site_id: sandboxSite.siteId,
    site_name: sandboxSite.siteName,
    user_name: first.userName,
    ...(details['firstName'] ? { first_name: details['firstName'] } : {}),
    ...(details['lastName'] ? { last_name: details['lastName'] } : {}),
    user_status: personStatus(person),
    default_account_id: first.accountId,
    default_account_name: defaultAccount?.accountName,
    language_culture: details['locale'] ?? 'en',
    federated_status: 'None',
    is_organization_admin: admins,
    created_on: adminTime(first.createdAt),
    memberships: person.memberships.map((m) => membershipWire(context, organizationId, m)),
    identities: [],
    device_verification_enabled: false,
    require_two_step_verification: false,
    allow_two_step_verification_snooze: false,
    allow_extend_org_admin_rights_to_self: false,
    is_managed_by_scim: false,
  };
}

/** `#/definitions/OrganizationUserResponse`: one user of a listing (with one membership when listed by account). */
export function organizationUserWire(person: OrganizationPerson, membership: UserRecord | undefined) {
  const first = person.memberships[0]!;
  const details = first.details ?? {};
  return {
    id: person.id,
    user_name: first.userName,
    ...(details['firstName'] ? { first_name: details['firstName'] } : {}),
    ...(details['lastName'] ? { last_name: details['lastName'] } : {}),
    user_status: personStatus(person),
    email: person.email,
    created_on: adminTime(first.createdAt),
    ...(membership
      ? {
          membership_status: membershipStatus(membership),
          membership_created_on: adminTime(membership.createdAt),
          ...(membership.closedAt ? { membership_closed_on: adminTime(membership.closedAt) } : {}),
          membership_id: membership.id,
        }
      : {}),
    is_membership_managed_by_scim: false,
    is_managed_by_scim: false,
  };
}

/** `#/definitions/NewUserResponse` of the memberships just made. */
export function newUserWire(context: AdminContext, person: { id: string }, users: UserRecord[]) {
  const first = users[0]!;
  const details = first.details ?? {};
  return {
    id: person.id,
    site_id: sandboxSite.siteId,
    user_name: first.userName,
    ...(details['firstName'] ? { first_name: details['firstName'] } : {}),
    ...(details['lastName'] ? { last_name: details['lastName'] } : {}),
    email: first.email,
    language_culture: 'en',
    federated_status: 'None',
    accounts: users.map((u) => {
      const profile = permissionProfileOf(context, u);
      return {
        id: u.accountId,
        site_id: sandboxSite.siteId,
        permission_profile: { id: numeric(profile.id), name: profile.name },
        groups: memberGroups(context, u),
        ...(u.details?.['company'] ? { company_name: u.details['company'] } : {}),
        ...(u.details?.['jobTitle'] ? { job_title: u.details['jobTitle'] } : {}),
      };
    }),
  };
}
