import { ApiError } from '../../platform/http/api-error.js';
import type { AccountsRepository } from '../accounts/repository.js';
import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { Principal } from './authenticate.js';
import { inForce, userAuthorizations } from '../user-authorizations/repository.js';

/** The header by which an agent acts for a principal who shared access with them (DocuSign's shared access). */
export const actOnBehalfHeader = 'x-docusign-act-on-behalf';

/** Refused: the caller has no shared access in force from that user (DocuSign's code for a caller lacking rights). */
export const cannotActOnBehalf = () =>
  new ApiError(
    400,
    'USER_LACKS_PERMISSIONS',
    'This user lacks sufficient permissions to access this resource: the user named by X-DocuSign-Act-On-Behalf has not shared access with you.',
  );

/**
 * The principal a request acts as: the authenticated caller, or — with
 * `X-DocuSign-Act-On-Behalf: <userId>` — that user of the same account, when
 * they gave the caller shared access that is in force now
 * (`…/users/{userId}/authorization`). The agent then sees and does what
 * the principal would, as DocuSign's eg043 shows it (listing the
 * principal's envelopes).
 */
export function actingPrincipal(
  db: SandboxDatabase,
  accounts: AccountsRepository,
  caller: Principal,
  header: string | string[] | undefined,
  now: number,
): Principal {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '' || value.toLowerCase() === caller.user.id) return caller;
  const principalUser = accounts.user(value.toLowerCase());
  if (principalUser === undefined || principalUser.accountId !== caller.account.id) throw cannotActOnBehalf();
  const granted = userAuthorizations(db)
    .ofPrincipal(principalUser.id)
    .some((a) => a.agentUserId === caller.user.id && inForce(a, now));
  if (!granted) throw cannotActOnBehalf();
  return { ...caller, user: principalUser };
}
