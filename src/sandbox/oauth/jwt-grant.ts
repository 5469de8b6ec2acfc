import { createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { AccountsRepository, UserRecord } from '../esignature/accounts/repository.js';
import type { OAuthStore } from './oauth-store.js';
import { OAuthError, invalidGrant } from './oauth-error.js';
import { parseScopes } from './scopes.js';

/** DocuSign's audiences of its demo account server; the sandbox also answers to its own HOST:PORT. */
export const docusignDemoAudience = 'account-d.docusign.com';

/** Clocks drift: an `iat` this far ahead, or an `exp` this far behind, is still taken (seconds). */
export const clockToleranceSeconds = 60;

/** DocuSign's limit: an assertion lives at most one hour. */
export const maxAssertionLifetimeSeconds = 3600;

/** What a verified assertion grants. */
export interface JwtGrant {
  integratorKey: string;
  user: UserRecord;
  scopes: string[];
}

export interface JwtGrantDeps {
  accounts: AccountsRepository;
  store: OAuthStore;
  /** Audiences accepted besides DocuSign's demo one: the sandbox's own HOST:PORT. */
  audiences: readonly string[];
  /** Epoch ms (the sandbox's clock). */
  now: number;
}

/**
 * Verifies a JWT bearer assertion (RFC 7523) as DocuSign's account server
 * does, in DocuSign's order of checks, so each fault answers the error a
 * client gets from DocuSign:
 *
 * 1. `iss` is a known integration key, `aud` this server → else
 *    invalid_grant `issuer_not_found` (DocuSign answers the same for a
 *    token sent to the wrong environment);
 * 2. the RS256 signature verifies with one of the key's registered public
 *    keys (jose) → else `no_valid_keys_or_signatures`;
 * 3. `sub` is a user id (GUID) of an open user of an active account (activated or not) → else `user_not_found`
 *    (also when `sub` is an email: DocuSign wants the GUID);
 * 4. times, by the sandbox's clock: `exp` not passed (`expired`), `iat` not
 *    in the future (`iat_in_future`: the caller's clock is ahead), at most
 *    one hour between them (`exp_too_far`) — these three words are the
 *    sandbox's, DocuSign documents none;
 * 5. scopes known (invalid_scope), and consented by that user for that key
 *    → else `consent_required`.
 *
 * Signature first, claims after: nothing in an unsigned claim decides more
 * than which keys to try.
 */
export async function verifyJwtAssertion(assertion: string, deps: JwtGrantDeps): Promise<JwtGrant> {
  let claims: JWTPayload;
  try {
    const header = decodeProtectedHeader(assertion);
    if (header.alg !== 'RS256') throw new Error('not RS256');
    claims = decodeJwt(assertion);
  } catch {
    throw invalidGrant('no_valid_keys_or_signatures');
  }
  const integratorKey = typeof claims.iss === 'string' ? claims.iss : '';
  if (integratorKey === '' || !deps.accounts.hasIntegratorKey(integratorKey)) throw invalidGrant('issuer_not_found');
  const audiences = Array.isArray(claims.aud) ? claims.aud : claims.aud === undefined ? [] : [claims.aud];
  const accepted = new Set([docusignDemoAudience, ...deps.audiences].map((a) => a.toLowerCase()));
  if (!audiences.some((a) => accepted.has(a.toLowerCase()))) throw invalidGrant('issuer_not_found');

  if (
    !(await signedByOneOf(
      assertion,
      deps.store.rsaKeys(integratorKey).map((k) => k.publicKeyPem),
    ))
  )
    throw invalidGrant('no_valid_keys_or_signatures');

  const user = typeof claims.sub === 'string' ? deps.accounts.user(claims.sub.toLowerCase()) : undefined;
  const account = user && deps.accounts.account(user.accountId);
  // A user added through the API exists for the grant before it activates its membership, as at DocuSign
  // (eg043 asks a token for the agent user it has just created): consent is then what it lacks. A closed user
  // and one of an account not activated yet (its initial user) are not found.
  if (!user || (user.closedAt ?? null) !== null || !account || account.status !== 'active')
    throw invalidGrant('user_not_found');

  const nowSeconds = Math.floor(deps.now / 1000);
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number')
    throw new OAuthError(400, 'invalid_request', 'the assertion must carry iat and exp (seconds since the epoch)');
  if (claims.exp + clockToleranceSeconds <= nowSeconds) throw invalidGrant('expired');
  if (claims.iat - clockToleranceSeconds > nowSeconds) throw invalidGrant('iat_in_future');
  if (claims.exp - claims.iat > maxAssertionLifetimeSeconds) throw invalidGrant('exp_too_far');

  const scopes = parseScopes(typeof claims.scope === 'string' ? claims.scope : undefined);
  if (deps.store.missingConsent(integratorKey, user.id, scopes).length > 0)
    throw new OAuthError(400, 'consent_required');
  return { integratorKey, user, scopes };
}

async function signedByOneOf(assertion: string, pems: readonly string[]): Promise<boolean> {
  for (const pem of pems) {
    let key: KeyObject;
    try {
      key = createPublicKey(pem);
    } catch {
      continue;
    }
    try {
      await compactVerify(assertion, key, { algorithms: ['RS256'] });
      return true;
    } catch {
      // Another registered key may have signed it (DocuSign allows several per integration key).
    }
  }
  return false;
}
