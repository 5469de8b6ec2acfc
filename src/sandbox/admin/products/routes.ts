import type { FastifyPluginAsync } from 'fastify';
import type { UserRecord } from '../../esignature/accounts/repository.js';
import { accountOfOrganization, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import { bodyObject, memberString } from '../admin-wire.js';
import { accountProfile, permissionProfileOf, personByEmail, personById } from '../users/organization-users.js';

import { esignProduct } from './esign-product.js';

export { esignProduct } from './esign-product.js';

type AccountParams = { organizationId: string; accountId: string };

/**
 * The Admin API's product permission profiles (ProductPermissionProfiles):
 * the account's profiles per product, a user's (by id or email), set and
 * removed. A user's eSignature profile is their membership's permission
 * profile; removing the product is kept in user_product_profiles (an empty
 * profile id) until a profile is set again.
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const productRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox } = context;
  const removed = sandbox.db.prepare<[string, string, string], { n: number }>(
    "SELECT 1 AS n FROM user_product_profiles WHERE account_id = ? AND user_id = ? AND product_id = ? AND permission_profile_id = ''",
  );
  const markRemoved = sandbox.db.prepare(
    "INSERT OR REPLACE INTO user_product_profiles (account_id, user_id, product_id, permission_profile_id) VALUES (?, ?, ?, '')",
  );
  const clearRemoved = sandbox.db.prepare(
    'DELETE FROM user_product_profiles WHERE account_id = ? AND user_id = ? AND product_id = ?',
  );

  const membershipOf = (
    organizationId: string,
    accountId: string,
    who: { email?: string | undefined; userId?: string | undefined },
  ) => {
    const person =
      who.userId !== undefined
        ? personById(context, organizationId, who.userId)
        : who.email !== undefined
          ? personByEmail(context, organizationId, who.email)
          : undefined;
    const membership = person?.memberships.find((m) => m.accountId === accountId && (m.closedAt ?? null) === null);
    if (!person || !membership)
      throw adminErrors.notFound(`A member of account ${accountId} with ${who.email ?? who.userId ?? 'no id'}`);
    return { person, membership };
  };

  /** `#/definitions/UserProductPermissionProfilesResponse`. */
  const userProfilesWire = (personId: string, membership: UserRecord) => {
    const gone = removed.get(membership.accountId, membership.id, esignProduct.id) !== undefined;
    const profile = permissionProfileOf(context, membership);
    return {
      user_id: personId,
      account_id: membership.accountId,
      product_permission_profiles: gone
        ? []
        : [
            {
              product_id: esignProduct.id,
              product_name: esignProduct.name,
              permission_profiles: [{ permission_profile_id: profile.id, permission_profile_name: profile.name }],
            },
          ],
    };
  };

  /** Sets the user's profiles from a request's product_permission_profiles. */
  const setProfiles = (membership: UserRecord, value: unknown) => {
    if (!Array.isArray(value) || value.length === 0)
      throw adminErrors.invalidRequest(
        "'product_permission_profiles' must list { product_id, permission_profile_id }.",
      );
    const changes = value.map((entry, i) => {
      const item = bodyObject(entry, `product_permission_profiles[${i}]`);
      const productId = memberString(item, 'product_id', `product_permission_profiles[${i}].product_id`);
      if (productId?.toLowerCase() !== esignProduct.id)
        throw adminErrors.invalidRequest(
          `Product ${productId ?? '(none)'} is not one the sandbox emulates (eSignature: ${esignProduct.id}).`,
        );
      const profileId = memberString(
        item,
        'permission_profile_id',
        `product_permission_profiles[${i}].permission_profile_id`,
      );
      return accountProfile(context, membership.accountId, { id: profileId });
    });
    sandbox.db.transaction(() => {
      for (const profile of changes) {
        sandbox.accounts.updateUser(membership.id, { permissionProfileId: profile.id });
        clearRemoved.run(membership.accountId, membership.id, esignProduct.id);
      }
    })();
  };

  app.get<{ Params: AccountParams }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/products/permission_profiles',
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const { account } = accountOfOrganization(context, organizationOf(request), request.params.accountId);
      return {
        product_permission_profiles: [
          {
            product_id: esignProduct.id,
            product_name: esignProduct.name,
            permission_profiles: sandbox.permissionProfiles
              .list(account.id)
              .map((p) => ({ permission_profile_id: p.id, permission_profile_name: p.name })),
          },
        ],
      };
    },
  );

  app.get<{ Params: AccountParams & { userId: string } }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/products/users/:userId/permission_profiles',
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const organization = organizationOf(request);
      const { account } = accountOfOrganization(context, organization, request.params.accountId);
      const { person, membership } = membershipOf(organization.id, account.id, { userId: request.params.userId });
      return { product_permission_profiles: userProfilesWire(person.id, membership).product_permission_profiles };
    },
  );

  app.post<{ Params: AccountParams & { userId: string } }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/products/users/:userId/permission_profiles',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const { account } = accountOfOrganization(context, organization, request.params.accountId);
      const { person, membership } = membershipOf(organization.id, account.id, { userId: request.params.userId });
      setProfiles(
        membership,
        bodyObject(request.body, 'a ProductPermissionProfilesRequest')['product_permission_profiles'],
      );
      return userProfilesWire(person.id, sandbox.accounts.user(membership.id)!);
    },
  );

  app.get<{ Params: AccountParams; Querystring: { email?: string } }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/products/permission_profiles/users',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const { account } = accountOfOrganization(context, organization, request.params.accountId);
      if (!request.query.email) throw adminErrors.invalidRequest("Send the user's email (email=…).");
      const { person, membership } = membershipOf(organization.id, account.id, { email: request.query.email });
      return userProfilesWire(person.id, membership);
    },
  );

  app.post<{ Params: AccountParams }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/products/permission_profiles/users',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const { account } = accountOfOrganization(context, organization, request.params.accountId);
      const body = bodyObject(request.body, 'a UserProductPermissionProfilesRequest');
      const email = memberString(body, 'email', 'email');
      if (!email) throw adminErrors.invalidRequest("'email' is required.");
      const { person, membership } = membershipOf(organization.id, account.id, { email });
      setProfiles(membership, body['product_permission_profiles']);
      return userProfilesWire(person.id, sandbox.accounts.user(membership.id)!);
    },
  );

  app.delete<{ Params: AccountParams }>(
    '/v2.1/organizations/:organizationId/accounts/:accountId/products/users',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const { account } = accountOfOrganization(context, organization, request.params.accountId);
      const body = bodyObject(request.body, 'a UserProductProfileDeleteRequest');
      const email = memberString(body, 'user_email', 'user_email');
      const userId = memberString(body, 'user_id', 'user_id');
      if (!email && !userId) throw adminErrors.invalidRequest("Send the user's user_email or user_id.");
      const { person, membership } = membershipOf(organization.id, account.id, { email, userId });
      const productIds = Array.isArray(body['product_ids']) ? body['product_ids'].map(String) : [];
      if (productIds.length === 0) throw adminErrors.invalidRequest("'product_ids' must list the products to remove.");
      const results: Record<string, string> = {};
      for (const productId of productIds) {
        if (productId.toLowerCase() !== esignProduct.id) {
          results[productId] = 'product_not_found';
          continue;
        }
        markRemoved.run(account.id, membership.id, esignProduct.id);
        results[productId] = 'removed';
      }
      return {
        is_success: Object.values(results).every((r) => r === 'removed'),
        user_email: person.email,
        user_id: person.id,
        user_product_results: results,
      };
    },
  );
};
