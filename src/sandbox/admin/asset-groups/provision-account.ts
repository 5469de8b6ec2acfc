import { randomUUID } from 'node:crypto';
import type { AdminServices } from '../admin-services.js';
import { hashToken, newToken } from '../../esignature/authentication/view-tokens.js';

/** The account the caller asked for (the request's targetAccount). */
export interface TargetAccountRequest {
  name: string;
  countryCode?: string | undefined;
  region?: string | undefined;
  site?: string | undefined;
  admin: { email: string; firstName?: string | undefined; lastName?: string | undefined; locale?: string | undefined };
}

/**
 * Makes the account an asset-group work asked for: active, with its
 * administrator as its first user. The administrator has no password yet:
 * the activation message in the outbox (GET /sandbox/outbox) holds the link
 * where they choose one, as DocuSign mails a new account's administrator.
 * Runs inside the work's transaction. Returns the account's id.
 */
export function provisionAccount(
  sandbox: AdminServices,
  target: TargetAccountRequest,
  how: { planId: string | undefined; now: number; origin: string },
): string {
  const accountId = randomUUID();
  const userId = randomUUID();
  sandbox.accounts.insertAccount(
    {
      id: accountId,
      name: target.name,
      planId: how.planId ?? 'sandbox-plan',
      distributorCode: null,
      distributorPasswordHash: null,
      parentAccountId: null,
      status: 'active',
      createdAt: how.now,
    },
    { countryCode: target.countryCode ?? null, region: target.region ?? null },
  );
  const names = { firstName: target.admin.firstName ?? '', lastName: target.admin.lastName ?? '' };
  sandbox.accounts.insertUser({
    id: userId,
    accountId,
    userName: `${names.firstName} ${names.lastName}`.trim() || target.admin.email,
    email: target.admin.email,
    passwordHash: '',
    activated: false,
    createdAt: how.now,
    details: { ...names, ...(target.admin.locale ? { locale: target.admin.locale } : {}) },
  });
  const token = newToken();
  const link = `${how.origin}/sandbox/activate/${token}`;
  sandbox.accounts.insertActivation(hashToken(token), accountId, userId, how.now);
  sandbox.outbox.add({
    kind: 'account-activation',
    to: target.admin.email,
    toName: `${names.firstName} ${names.lastName}`.trim() || null,
    subject: `Activate your account ${target.name}`,
    body: `Hello ${names.firstName || target.admin.email},\n\nYour organization created the account "${target.name}" with you as its administrator. Open this link to choose your password:\n${link}\n\nYour user id (to log in through the API): ${userId}`,
    links: [link],
    accountId,
  });
  return accountId;
}
