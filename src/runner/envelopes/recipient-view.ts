import type { AccountClient } from '../../client/esignature-client.js';
import type { ViewUrl } from '../../client/wire-types.js';
import type { SigningEntry } from '../../output/records.js';

/**
 * Asks the service for a fresh signing address for one recipient of an
 * envelope already sent, as signing.json recorded them: what `signrun
 * sign-url` prints and what a link on `signrun links serve` redirects to.
 * Addresses are single use and short-lived, so each is asked for when needed.
 */
export function freshRecipientView(
  account: AccountClient,
  envelopeId: string,
  returnUrl: string,
  entry: Pick<SigningEntry, 'clientUserId' | 'email' | 'userName' | 'recipientId' | 'userId'>,
): Promise<ViewUrl> {
  return account.createRecipientView(envelopeId, {
    returnUrl,
    authenticationMethod: 'none',
    clientUserId: entry.clientUserId,
    email: entry.email,
    userName: entry.userName,
    recipientId: entry.recipientId,
    ...(entry.userId ? { userId: entry.userId } : {}),
  });
}
