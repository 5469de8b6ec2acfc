import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountOfOrganization, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import { bodyObject, memberObject, memberString, requiredEmail, requiredString, sandboxSite } from '../admin-wire.js';
import { esignProduct } from '../products/esign-product.js';
import {
  accountProfile,
  addMembership,
  organizationPeople,
  personByEmail,
  permissionProfileOf,
  personById,
  type OrganizationPerson,
} from './organization-users.js';
import { drilldownWire, membershipStatus, newUserWire, organizationUserWire } from './user-wire.js';
import type { UserRecord } from '../../esignature/accounts/repository.js';

type OrgParams = { organizationId: string };
type UsersQuery = {
  start?: string;
  take?: string;
  email?: string;
  account_id?: string;
  organization_reserved_domain_id?: string;
  last_modified_since?: string;
  status?: string;
  membership_status?: string;
};

/** The ids of a request's groups ([{ id }]). */
function groupIdsOf(value: unknown, path: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw adminErrors.invalidRequest(`'${path}' must be a list of { id }.`);
  return value.map((g, i) => {
    const id = typeof g === 'object' && g !== null ? (g as Record<string, unknown>)['id'] : undefined;
    if (typeof id !== 'number' && typeof id !== 'string')
      throw adminErrors.invalidRequest(`'${path}[${i}].id' is required.`);
    return String(id);
  });
}

/** A query count (start, take): a whole number or absent. */
function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw adminErrors.invalidRequest(`'${name}' must be a whole number.`);
  return n;
}

/**
 * The Admin API's users (Users): the organisation's users across its
 * accounts, added with their memberships, listed, drilled down by email or
 * id, changed, and their memberships closed; and the permission profiles
 * and groups of an organisation's account.
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const userRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox } = context;
  const now = () => sandbox.clock.now();

  /** Adds the person's memberships in one transaction; the person (new or already known) and the rows made. */
  const addUser = (
    organizationId: string,
    body: Record<string, unknown>,
    memberships: Array<{
      accountId: string;
      profile?: { id?: string | undefined; name?: string | undefined };
      groupIds: string[];
      companyName?: string | undefined;
      jobTitle?: string | undefined;
    }>,
  ): { person: OrganizationPerson; users: UserRecord[] } => {
    const email = requiredEmail(body, 'email', 'email');
    const userName = memberString(body, 'user_name', 'user_name')?.trim() || email;
    const activate = body['auto_activate_memberships'] === true;
    const users = sandbox.db.transaction(() =>
      memberships.map((m) => {
        const profile =
          m.profile && (m.profile.id !== undefined || m.profile.name !== undefined)
            ? accountProfile(context, m.accountId, m.profile)
            : undefined;
        return addMembership(context, {
          accountId: m.accountId,
          email,
          userName,
          firstName: memberString(body, 'first_name', 'first_name'),
          lastName: memberString(body, 'last_name', 'last_name'),
          permissionProfileId: profile?.id,
          groupIds: m.groupIds,
          companyName: m.companyName,
          jobTitle: m.jobTitle,
          activate,
          now: now(),
        });
      }),
    )();
    return { person: personByEmail(context, organizationId, email)!, users };
  };

  const profileRef = (value: Record<string, unknown>, path: string) => ({
    id: memberString(value, 'id', `${path}.id`),
    name: memberString(value, 'name', `${path}.name`),
  });

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/users',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const body = bodyObject(request.body, 'a NewUserRequest');
      requiredString(body, 'user_name', 'user_name');
      const accounts = body['accounts'];
      if (!Array.isArray(accounts) || accounts.length === 0)
        throw adminErrors.invalidRequest("'accounts' must list at least one account { id }.");
      const memberships = accounts.map((entry, i) => {
        const account = bodyObject(entry, `accounts[${i}]`);
        const accountId = accountOfOrganization(
          context,
          organization,
          requiredString(account, 'id', `accounts[${i}].id`),
        ).account.id;
        return {
          accountId,
          profile: profileRef(
            memberObject(account, 'permission_profile', `accounts[${i}].permission_profile`),
            `accounts[${i}].permission_profile`,
          ),
          groupIds: groupIdsOf(account['groups'], `accounts[${i}].groups`),
          companyName: memberString(account, 'company_name', `accounts[${i}].company_name`),
          jobTitle: memberString(account, 'job_title', `accounts[${i}].job_title`),
        };
      });
      const { person, users } = addUser(organization.id, body, memberships);
      return newUserWire(context, person, users);
    },
  );

  app.post<{ Params: OrgParams & { accountId: string } }>(
    '/v2/organizations/:organizationId/accounts/:accountId/users',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const accountId = accountOfOrganization(context, organization, request.params.accountId).account.id;
      const body = bodyObject(request.body, 'a NewAccountUserRequest');
      const { person, users } = addUser(organization.id, body, [
        {
          accountId,
          profile: profileRef(memberObject(body, 'permission_profile', 'permission_profile'), 'permission_profile'),
          groupIds: groupIdsOf(body['groups'], 'groups'),
        },
      ]);
      return newUserWire(context, person, users);
    },
  );

  app.post<{ Params: OrgParams & { accountId: string } }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/users',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const accountId = accountOfOrganization(context, organization, request.params.accountId).account.id;
      const body = bodyObject(request.body, 'a NewMultiProductUserAddRequest');
      const products = Array.isArray(body['product_permission_profiles']) ? body['product_permission_profiles'] : [];
      const esign = products
        .map((p, i) => bodyObject(p, `product_permission_profiles[${i}]`))
        .find((p) => memberString(p, 'product_id', 'product_id')?.toLowerCase() === esignProduct.id);
      const groups = Array.isArray(body['ds_groups']) ? body['ds_groups'] : [];
      const { person, users } = addUser(organization.id, body, [
        {
          accountId,
          profile: { id: esign ? memberString(esign, 'permission_profile_id', 'permission_profile_id') : undefined },
          groupIds: groups.map((g, i) =>
            requiredString(bodyObject(g, `ds_groups[${i}]`), 'ds_group_id', `ds_groups[${i}].ds_group_id`),
          ),
        },
      ]);
      const wire = newUserWire(context, person, users);
      const account = accountOfOrganization(context, organization, accountId);
      return {
        ...wire,
        accounts: users.map((u) => {
          const profile = permissionProfileOf(context, u);
          return {
            id: u.accountId,
            site_id: sandboxSite.siteId,
            product_permission_profiles: [
              {
                product_id: esignProduct.id,
                product_name: esignProduct.name,
                permission_profiles: [{ permission_profile_id: profile.id, permission_profile_name: profile.name }],
              },
            ],
            ds_groups: sandbox.groups
              .list(u.accountId)
              .filter((g) => sandbox.groups.members(g.id).includes(u.id))
              .map((g) => ({
                ds_group_id: g.id,
                account_id: u.accountId,
                group_id: g.id,
                group_name: g.name,
                account_name: account.account.name,
              })),
          };
        }),
      };
    },
  );

  app.get<{ Params: OrgParams; Querystring: UsersQuery }>(
    '/v2/organizations/:organizationId/users',
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const organization = organizationOf(request);
      const q = request.query;
      if (!q.email && !q.account_id && !q.organization_reserved_domain_id)
        throw adminErrors.invalidRequest(
          'At least one of email, account_id or organization_reserved_domain_id must be specified.',
        );
      const since = q.last_modified_since ? Date.parse(q.last_modified_since) : undefined;
      if (since !== undefined && Number.isNaN(since))
        throw adminErrors.invalidRequest("'last_modified_since' must be a date.");
      const accountId = q.account_id
        ? accountOfOrganization(context, organization, q.account_id).account.id
        : undefined;
      const rows = organizationPeople(context, organization.id).flatMap((person) => {
        if (q.email && person.email.toLowerCase() !== q.email.toLowerCase()) return [];
        const membership = accountId ? person.memberships.find((m) => m.accountId === accountId) : undefined;
        if (accountId && !membership) return [];
        const changed = Math.max(...person.memberships.map((m) => m.closedAt ?? m.createdAt));
        if (since !== undefined && changed < since) return [];
        if (q.membership_status && membership && membershipStatus(membership) !== q.membership_status) return [];
        const wire = organizationUserWire(person, membership);
        if (q.status && wire.user_status !== q.status) return [];
        return [wire];
      });
      const start = count(q.start, 'start', 0);
      const take = count(q.take, 'take', 20);
      const page = rows.slice(start, start + take);
      return {
        users: page,
        paging: {
          result_set_size: page.length,
          result_set_start_position: start,
          result_set_end_position: Math.max(start, start + page.length - 1),
          total_set_size: rows.length,
        },
      };
    },
  );

  const drilldownByEmail = (request: FastifyRequest<{ Params: OrgParams; Querystring: { email?: string } }>) => {
    const organization = organizationOf(request);
    const email = request.query.email;
    if (!email) throw adminErrors.invalidRequest("Send the user's email (email=…).");
    const person = personByEmail(context, organization.id, email);
    return { users: person ? [drilldownWire(context, organization.id, person)] : [] };
  };
  app.get<{ Params: OrgParams; Querystring: { email?: string } }>(
    '/v2/organizations/:organizationId/users/profile',
    { config: { adminScope: 'user_read' } },
    async (request) => drilldownByEmail(request),
  );
  app.get<{ Params: OrgParams; Querystring: { email?: string } }>(
    '/v2.1/organizations/:organizationId/users/dsprofile',
    { config: { adminScope: 'user_read' } },
    async (request) => drilldownByEmail(request),
  );
  app.get<{ Params: OrgParams & { userId: string } }>(
    '/v2.1/organizations/:organizationId/users/:userId/dsprofile',
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const organization = organizationOf(request);
      return {
        users: [drilldownWire(context, organization.id, personById(context, organization.id, request.params.userId))],
      };
    },
  );

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/users/profiles',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const body = bodyObject(request.body, 'an UpdateUsersRequest');
      const users = Array.isArray(body['users']) ? (body['users'] as unknown[]) : [];
      const results = users.map((entry, i) => {
        const user = bodyObject(entry, `users[${i}]`);
        const id = requiredString(user, 'id', `users[${i}].id`);
        try {
          const person = personById(context, organization.id, id);
          sandbox.db.transaction(() => {
            for (const m of person.memberships) {
              const details = { ...(m.details ?? {}) };
              const first = memberString(user, 'first_name', 'first_name');
              const last = memberString(user, 'last_name', 'last_name');
              if (first !== undefined) details['firstName'] = first;
              if (last !== undefined) details['lastName'] = last;
              const userName = memberString(user, 'user_name', 'user_name');
              sandbox.accounts.updateUser(m.id, { details, ...(userName ? { userName } : {}) });
            }
          })();
          return { id: person.id, site_id: 1, email: person.email };
        } catch (error) {
          return { id, site_id: 1, error_details: { error: 'not_found', error_description: (error as Error).message } };
        }
      });
      return { success: results.every((r) => !('error_details' in r)), users: results };
    },
  );

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/users/email_addresses',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const body = bodyObject(request.body, 'an UpdateUsersEmailRequest');
      const users = Array.isArray(body['users']) ? (body['users'] as unknown[]) : [];
      const results = users.map((entry, i) => {
        const user = bodyObject(entry, `users[${i}]`);
        const id = requiredString(user, 'id', `users[${i}].id`);
        const email = requiredEmail(user, 'email', `users[${i}].email`);
        const person = personById(context, organization.id, id);
        sandbox.db.transaction(() => {
          for (const m of person.memberships) sandbox.accounts.updateUser(m.id, { email });
        })();
        return { id: person.id, site_id: 1, email };
      });
      return { success: true, users: results };
    },
  );

  app.delete<{ Params: OrgParams & { userId: string } }>(
    '/v2/organizations/:organizationId/users/:userId/accounts',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const person = personById(context, organization.id, request.params.userId);
      const body = bodyObject(request.body, 'a DeleteMembershipsRequest');
      const accounts = Array.isArray(body['accounts']) ? (body['accounts'] as unknown[]) : [];
      const results = accounts.map((entry, i) => {
        const id = requiredString(bodyObject(entry, `accounts[${i}]`), 'id', `accounts[${i}].id`).toLowerCase();
        const membership = person.memberships.find((m) => m.accountId === id && (m.closedAt ?? null) === null);
        if (!membership)
          return {
            id,
            error_details: { error: 'not_found', error_description: `No open membership in account ${id}.` },
          };
        sandbox.accounts.closeUser(membership.id, now());
        return { id };
      });
      return { success: results.every((r) => !('error_details' in r)), accounts: results };
    },
  );

  app.post<{ Params: OrgParams & { userId: string; membershipId: string } }>(
    '/v2/organizations/:organizationId/users/:userId/memberships/:membershipId',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const person = personById(context, organization.id, request.params.userId);
      const membership = person.memberships.find((m) => m.id === request.params.membershipId.toLowerCase());
      if (!membership) throw adminErrors.notFound(`Membership ${request.params.membershipId}`);
      sandbox.db.prepare('UPDATE users SET activated = 1 WHERE id = ?').run(membership.id);
      return { status: 'active' };
    },
  );

  app.delete<{ Params: OrgParams & { userId: string } }>(
    '/v2/organizations/:organizationId/users/:userId/identities',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      personById(context, organizationOf(request).id, request.params.userId);
      // The sandbox federates no identity: there is none to delete.
      return { success: true, identities: [] };
    },
  );

  app.get<{ Params: OrgParams & { accountId: string } }>(
    '/v2/organizations/:organizationId/accounts/:accountId/permissions',
    { config: { adminScope: 'permission_read' } },
    async (request) => {
      const { account } = accountOfOrganization(context, organizationOf(request), request.params.accountId);
      return {
        permissions: sandbox.permissionProfiles.list(account.id).map((p) => ({ id: Number(p.id), name: p.name })),
      };
    },
  );

  app.get<{ Params: OrgParams & { accountId: string }; Querystring: { start?: string; take?: string } }>(
    '/v2/organizations/:organizationId/accounts/:accountId/groups',
    { config: { adminScope: 'group_read' } },
    async (request) => {
      const { account } = accountOfOrganization(context, organizationOf(request), request.params.accountId);
      const groups = sandbox.groups
        .list(account.id)
        .map((g) => ({ id: Number(g.id), name: g.name, type: g.groupType }));
      const start = count(request.query.start, 'start', 0);
      const page = groups.slice(start, start + count(request.query.take, 'take', 100));
      return {
        groups: page,
        paging: {
          result_set_size: page.length,
          result_set_start_position: start,
          result_set_end_position: Math.max(start, start + page.length - 1),
          total_set_size: groups.length,
        },
      };
    },
  );
};
