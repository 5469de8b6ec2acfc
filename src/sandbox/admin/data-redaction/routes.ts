import type { FastifyPluginAsync } from 'fastify';
import type { UserRecord } from '../../esignature/accounts/repository.js';
import { callerOf, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import { bodyObject, requiredString } from '../admin-wire.js';
import { personById } from '../users/organization-users.js';

/**
 * The Admin API's data redaction (DataRedaction): a user's personal data
 * erased from some or all of their memberships in the organisation, or from
 * one account. A redacted membership is closed and keeps no name, email or
 * details: its row stays (envelopes may name it), its personal data does not.
 */
export const dataRedactionRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox } = context;
  const record = sandbox.db.prepare(
    'INSERT OR REPLACE INTO redacted_users (user_id, scope, scope_id, redacted_at) VALUES (?, ?, ?, ?)',
  );

  const redact = (membership: UserRecord, scope: 'organization' | 'account', scopeId: string) => {
    const now = sandbox.clock.now();
    if ((membership.closedAt ?? null) === null) sandbox.accounts.closeUser(membership.id, now);
    sandbox.accounts.updateUser(membership.id, {
      userName: 'Redacted User',
      email: `redacted-${membership.id}@redacted.invalid`,
      details: {},
    });
    record.run(membership.id, scope, scopeId, now);
  };

  app.post<{ Params: { organizationId: string } }>(
    '/v2/data_redaction/organizations/:organizationId/user',
    { config: { adminScope: 'user_data_redact' } },
    async (request) => {
      const organization = organizationOf(request);
      const body = bodyObject(request.body, 'an IndividualUserDataRedactionRequest');
      const person = personById(context, organization.id, requiredString(body, 'user_id', 'user_id'));
      const wanted = Array.isArray(body['memberships'])
        ? body['memberships'].map((m, i) =>
            requiredString(
              bodyObject(m, `memberships[${i}]`),
              'account_id',
              `memberships[${i}].account_id`,
            ).toLowerCase(),
          )
        : person.memberships.map((m) => m.accountId);
      const results = sandbox.db.transaction(() =>
        wanted.map((accountId) => {
          const membership = person.memberships.find((m) => m.accountId === accountId);
          if (!membership) return { account_id: accountId, status: 'membership_not_found' };
          redact(membership, 'organization', organization.id);
          return { account_id: accountId, status: 'success' };
        }),
      )();
      return {
        user_id: person.id,
        status: results.every((r) => r.status === 'success') ? 'success' : 'partial_failure',
        membership_results: results,
      };
    },
  );

  app.post<{ Params: { accountId: string } }>(
    '/v2/data_redaction/accounts/:accountId/user',
    { config: { adminScope: 'user_data_redact' } },
    async (request) => {
      const accountId = request.params.accountId.toLowerCase();
      // No organisation in the path: the account's, which the caller must administer.
      const organizationId = context.organizations.organizationOfAccount(accountId)?.organizationId;
      const administers =
        organizationId !== undefined &&
        context.organizations
          .administeredBy(callerOf(request).principal.user.email)
          .some((o) => o.id === organizationId);
      if (!administers) throw adminErrors.accountNotInOrganization(accountId);
      const body = bodyObject(request.body, 'an IndividualMembershipDataRedactionRequest');
      const person = personById(context, organizationId, requiredString(body, 'user_id', 'user_id'));
      const membership = person.memberships.find((m) => m.accountId === accountId);
      if (!membership) throw adminErrors.notFound(`A membership of ${person.id} in account ${accountId}`);
      sandbox.db.transaction(() => redact(membership, 'account', accountId))();
      return {
        user_id: person.id,
        status: 'success',
        membership_results: [{ account_id: accountId, status: 'success' }],
      };
    },
  );
};
