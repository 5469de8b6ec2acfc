import { randomUUID } from 'node:crypto';
import type { UserRecord } from '../../repositories/accounts.js';
import { hashToken, newToken } from '../../repositories/view-tokens.js';
import { profileOfUser } from '../../people/permissions.js';
import type { AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';

/**
 * The organisation's users as the Admin API sees them: a person (an email
 * address) with a membership in each of the organisation's accounts they
 * belong to. In the sandbox a membership is a user row of that account; the
 * person's id is the id of their oldest membership, and any membership's id
 * designates them.
 */
export interface OrganizationPerson {
  /** The Admin API's user id (the oldest membership's). */
  id: string;
  email: string;
  memberships: UserRecord[];
}

/** What a new membership is given (NewUserRequest and its kin). */
export interface NewMembership {
  accountId: string;
  email: string;
  userName: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  permissionProfileId?: string | undefined;
  groupIds?: readonly string[];
  companyName?: string | undefined;
  jobTitle?: string | undefined;
  /** DocuSign's auto_activate_memberships: active at once, else an activation message. */
  activate: boolean;
  now: number;
}

/** The users of the organisation's accounts (closed ones included), grouped by person. */
export function organizationPeople(context: AdminContext, organizationId: string): OrganizationPerson[] {
  const byEmail = new Map<string, UserRecord[]>();
  for (const account of context.organizations.accounts(organizationId)) {
    if (account.accountStatus === 'deleted') continue;
    for (const user of context.sandbox.accounts.usersOf(account.accountId)) {
      const key = user.email.toLowerCase();
      byEmail.set(key, [...(byEmail.get(key) ?? []), user]);
    }
  }
  return [...byEmail.values()].map(personOf);
}

function personOf(memberships: UserRecord[]): OrganizationPerson {
  const sorted = [...memberships].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  return { id: sorted[0]!.id, email: sorted[0]!.email, memberships: sorted };
}

/** The person with this email in the organisation; undefined when none of its accounts has them. */
export function personByEmail(
  context: AdminContext,
  organizationId: string,
  email: string,
): OrganizationPerson | undefined {
  return organizationPeople(context, organizationId).find((p) => p.email.toLowerCase() === email.toLowerCase());
}

/** The person one of whose memberships has this id; not_found otherwise. */
export function personById(context: AdminContext, organizationId: string, userId: string): OrganizationPerson {
  const person = organizationPeople(context, organizationId).find((p) =>
    p.memberships.some((m) => m.id === userId.toLowerCase()),
  );
  if (!person) throw adminErrors.notFound(`User ${userId}`);
  return person;
}

/** The user's eSignature permission profile id and name (Account Administrator when none is set). */
export function permissionProfileOf(context: AdminContext, user: UserRecord): { id: string; name: string } {
  const profile = profileOfUser(context.sandbox, user);
  return { id: profile.id, name: profile.name };
}

/** A permission profile of the account by id or name; invalid_request when it has none such. */
export function accountProfile(
  context: AdminContext,
  accountId: string,
  ref: { id?: string | undefined; name?: string | undefined },
) {
  const profile =
    ref.id !== undefined
      ? context.sandbox.permissionProfiles.get(accountId, ref.id)
      : ref.name !== undefined
        ? context.sandbox.permissionProfiles.byName(accountId, ref.name)
        : undefined;
  if (!profile)
    throw adminErrors.invalidRequest(`Account ${accountId} has no permission profile ${ref.id ?? ref.name ?? ''}.`);
  return profile;
}

/**
 * Adds a membership: a user row in the account (no password: the
 * activation message's link lets them choose one), its profile and groups.
 * invalid_request when the person already is a member of the account.
 */
export function addMembership(context: AdminContext, membership: NewMembership): UserRecord {
  const { sandbox } = context;
  const existing = sandbox.db
    .prepare<[string, string], { n: number }>(
      'SELECT 1 AS n FROM users WHERE account_id = ? AND email = ? COLLATE NOCASE AND closed_at IS NULL',
    )
    .get(membership.accountId, membership.email);
  if (existing)
    throw adminErrors.invalidRequest(`${membership.email} already is a member of account ${membership.accountId}.`);
  for (const groupId of membership.groupIds ?? [])
    if (!sandbox.groups.get(membership.accountId, groupId))
      throw adminErrors.invalidRequest(`Account ${membership.accountId} has no group ${groupId}.`);
  const details: Record<string, string> = {};
  if (membership.firstName) details['firstName'] = membership.firstName;
  if (membership.lastName) details['lastName'] = membership.lastName;
  if (membership.companyName) details['company'] = membership.companyName;
  if (membership.jobTitle) details['jobTitle'] = membership.jobTitle;
  const user: UserRecord = {
    id: randomUUID(),
    accountId: membership.accountId,
    userName: membership.userName,
    email: membership.email,
    passwordHash: '',
    activated: membership.activate,
    createdAt: membership.now,
    permissionProfileId: membership.permissionProfileId ?? null,
    details,
  };
  sandbox.accounts.insertUser(user);
  for (const groupId of membership.groupIds ?? []) sandbox.groups.addMember(groupId, user.id);
  const token = newToken();
  const link = `${context.origin()}/sandbox/activate/${token}`;
  sandbox.accounts.insertActivation(hashToken(token), membership.accountId, user.id, membership.now);
  const account = sandbox.accounts.account(membership.accountId);
  sandbox.outbox.add({
    kind: 'account-activation',
    to: membership.email,
    toName: membership.userName,
    subject: `Activate your membership of ${account?.name ?? membership.accountId}`,
    body: `Hello ${membership.firstName ?? membership.userName},\n\nYou were added to the account "${account?.name ?? membership.accountId}". Open this link to choose your password:\n${link}\n\nYour user id (to log in through the API): ${user.id}`,
    links: [link],
    accountId: membership.accountId,
  });
  return user;
}
