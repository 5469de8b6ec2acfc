import { randomUUID } from 'node:crypto';
import { accountParams } from '../route-schemas.js';
import type { FastifyPluginAsync } from 'fastify';
import { principalOf, apiBaseOf, originOf, type AccountParams } from '../request-helpers.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { requirePermission } from '../permission-profiles/permissions.js';
import { isoTime } from '../../platform/clock.js';
import { lenientObject, lenientString } from '../../platform/http/lenient.js';
import { hashPassword, verifyPassword } from '../../platform/password-hash.js';
import { hashToken, newToken } from '../authentication/view-tokens.js';
import type { AccountRecord } from './repository.js';

/** An account the caller may see: its own, or a subsidiary of its own (the distributor reads what it created). */
function visibleAccount(request: Parameters<typeof principalOf>[0], accountId: string): AccountRecord {
  const { account } = principalOf(request);
  const target = request.server.sandbox.accounts.account(accountId.toLowerCase());
  if (!target || target.status === 'deleted') throw apiErrors.userLacksMembership();
  if (target.id !== account.id && target.parentAccountId !== account.id) throw apiErrors.userLacksMembership();
  return target;
}

/**
 * Accounts (4.2–4.4): read (#/definitions/accountInformation), create a
 * subsidiary as a distributor (#/definitions/newAccountDefinition → 201
 * #/definitions/newAccountSummary), delete (only as a user of that account).
 */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: AccountParams }>(
    '/accounts/:accountId',
    { schema: accountParams, config: { accountAccess: 'route' } },
    async (request) => {
      const account = visibleAccount(request, request.params.accountId);
      return {
        accountIdGuid: account.id,
        accountName: account.name,
        currentPlanId: account.planId,
        planName: account.planId,
        planClassification: 'partner',
        createdDate: isoTime(account.createdAt),
        planStartDate: isoTime(account.createdAt),
        currencyCode: 'USD',
        connectPermission: 'full',
        distributorCode: account.distributorCode ?? undefined,
        envelopeSendingBlocked: account.status === 'active' ? 'false' : 'true',
        isDowngrade: 'false',
        canUpgrade: 'false',
        canCancelRenewal: 'false',
        seatsAllowed: 'unlimited',
        // Closed users hold no seat.
        seatsInUse: String(
          request.server.sandbox.accounts
            .usersOf(account.id)
            .filter((u) => u.closedAt === null || u.closedAt === undefined).length,
        ),
        suspensionStatus: account.status === 'pending' ? 'awaiting activation' : '',
        billingPeriodEnvelopesAllowed: 'unlimited',
      };
    },
  );

  app.post('/accounts', async (request, reply) => {
    const principal = principalOf(request);
    const { sandbox } = request.server;
    const body = lenientObject(request.body, 'newAccountDefinition');
    if (!body) throw apiErrors.invalidBody('Send a newAccountDefinition as JSON.');
    const accountName = lenientString(body['accountName'], 'accountName');
    if (!accountName) throw apiErrors.invalidBody("'accountName' is required.");
    const code = lenientString(body['distributorCode'], 'distributorCode');
    const password = lenientString(body['distributorPassword'], 'distributorPassword');
    const distributor = code ? sandbox.accounts.distributorAccount(code) : undefined;
    if (
      !distributor ||
      !password ||
      !distributor.distributorPasswordHash ||
      !(await verifyPassword(password, distributor.distributorPasswordHash))
    ) {
      throw apiErrors.accountLacksPermissions(
        'The distributorCode and distributorPassword do not match a distributor.',
      );
    }
    if (principal.account.id !== distributor.id) {
      throw apiErrors.accountLacksPermissions(
        'The distributor credentials belong to another account than the one logged in.',
      );
    }
    const initialUser = lenientObject(body['initialUser'], 'initialUser');
    const email = lenientString(initialUser?.['email'], 'initialUser.email');
    const userPassword = lenientString(initialUser?.['password'], 'initialUser.password');
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email))
      throw apiErrors.invalidBody("'initialUser.email' must be an email address.");
    if (!userPassword) throw apiErrors.invalidBody("'initialUser.password' is required.");
    const planId = lenientString(
      lenientObject(body['planInformation'], 'planInformation')?.['planId'],
      'planInformation.planId',
    );
    if (!planId) throw apiErrors.invalidBody("'planInformation.planId' is required.");
    const userName = lenientString(initialUser?.['userName'], 'initialUser.userName') || email;
    const now = sandbox.clock.now();
    const accountId = randomUUID();
    const userId = randomUUID();
    const passwordHash = await hashPassword(userPassword);
    const token = newToken();
    const link = `${originOf(request)}/sandbox/activate/${token}`;
    sandbox.db.transaction(() => {
      sandbox.accounts.insertAccount(
        {
          id: accountId,
          name: accountName,
          planId,
          distributorCode: null,
          distributorPasswordHash: null,
          parentAccountId: distributor.id,
          status: 'pending',
          createdAt: now,
        },
        { addressInformation: body['addressInformation'] ?? null },
      );
      sandbox.accounts.insertUser({
        id: userId,
        accountId,
        userName,
        email,
        passwordHash,
        activated: false,
        createdAt: now,
      });
      sandbox.accounts.insertActivation(hashToken(token), accountId, userId, now);
      const firstName = lenientString(initialUser?.['firstName'], 'initialUser.firstName') ?? '';
      sandbox.outbox.add({
        kind: 'account-activation',
        to: email,
        toName: `${firstName} ${lenientString(initialUser?.['lastName'], 'initialUser.lastName') ?? ''}`.trim() || null,
        subject: `Activate your account ${accountName}`,
        body: `Hello ${firstName || email},\n\nAn account "${accountName}" was created for you. Open this link to activate it:\n${link}\n\nYour user id (to log in through the API): ${userId}`,
        links: [link],
        accountId,
      });
    })();
    void reply.status(201);
    return {
      accountId,
      accountIdGuid: accountId,
      accountName,
      userId,
      baseUrl: `${apiBaseOf(request)}/accounts/${accountId}`,
    };
  });

  app.delete<{ Params: AccountParams }>(
    '/accounts/:accountId',
    { schema: accountParams, config: { accountAccess: 'route' } },
    async (request, reply) => {
      const { account, user } = principalOf(request);
      const { sandbox } = request.server;
      const target = sandbox.accounts.account(request.params.accountId.toLowerCase());
      // DocuSign: "You must be an account admin to close your account." An admin is a user of that
      // account whose profile may manage it, or an administrator of the organisation that made it.
      const own = target?.id === account.id;
      const throughOrganization = target !== undefined && sandbox.closableByOrganizationAdmin(target.id, user.email);
      if (!target || (!own && !throughOrganization)) {
        if (target && target.status !== 'deleted' && target.parentAccountId === account.id)
          throw apiErrors.accountLacksPermissions(
            'An account is deleted by a user of that same account: log in with the userId returned at its creation.',
          );
        throw apiErrors.userLacksMembership();
      }
      // A closed account's memberships are closed with it: closing it again is refused, never done twice.
      if (target.status === 'deleted')
        throw apiErrors.userLacksMembership('The account has been closed; only DocuSign can reopen it.');
      if (own) {
        requirePermission(request, 'allowAccountManagement');
        if (target.parentAccountId === null && !throughOrganization)
          throw apiErrors.accountLacksPermissions(
            'A seeded main account cannot be deleted; only subsidiary accounts can.',
          );
      }
      sandbox.accounts.setStatus(target.id, 'deleted');
      void reply.status(200);
      return '';
    },
  );
};
