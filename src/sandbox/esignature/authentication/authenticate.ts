import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type { AccountsRepository, UserRecord, AccountRecord } from '../accounts/repository.js';
import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { Clock } from '../../platform/clock.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { verifyPassword } from '../../platform/password-hash.js';
import { parseCredentialsHeader } from './credentials-header.js';
import { hashToken } from './view-tokens.js';
import { setBounded } from '../../platform/bounded-map.js';

/** The authenticated caller of an API request. */
export interface Principal {
  user: UserRecord;
  account: AccountRecord;
  integratorKey: string;
}

/** Request headers the authenticator reads. */
export interface AuthHeaders {
  'x-docusign-authentication'?: string | string[] | undefined;
  authorization?: string | undefined;
}

/**
 * Authenticates API calls: `X-DocuSign-Authentication` (JSON or XML, section
 * 5 of the API description) or `Authorization: Bearer <token>` (tokens from
 * POST /v2/oauth2/token).
 *
 * scrypt costs tens of ms, so a verified credential is cached in memory,
 * keyed by an HMAC (per-process key) of username, password and integrator
 * key: the cache never holds a password, and a wrong password misses it.
 * A header seen before is looked up by the HMAC of the header itself, before
 * any parsing. The principal (user and account) is kept while the accounts
 * repository's change stamp stays the same, and read again as soon as any
 * account or user may have changed (here or in another process on the same
 * data folder), so a deleted account or an unactivated user is refused even
 * when cached. Re-reading them on every call was ~8% of the sandbox's CPU in
 * bench/run.
 */
export type Authenticator = ReturnType<typeof createAuthenticator>;

/** Verified credentials remembered at most (a client that varies its header endlessly cannot grow the cache further). */
const cacheCapacity = 10_000;

export function createAuthenticator(db: SandboxDatabase, accounts: AccountsRepository, clock: Clock) {
  // A KeyObject made once: createHmac with raw key bytes builds one on every call, half of keyOf's cost
  // (keyOf runs on every API request).
  const cacheKey = createSecretKey(randomBytes(32));
  // HMAC of credentials, or of a whole header → who they verified as.
  const verified = new Map<string, { userId: string; integratorKey: string }>();
  const principals = new Map<string, { stamp: string; principal: Principal }>(); // userId + integrator key
  const accessToken = db.prepare<[string], { user_id: string; integrator_key: string; expires_at: number }>(
    'SELECT user_id, integrator_key, expires_at FROM access_tokens WHERE token_hash = ?',
  );

  const keyOf = (text: string) => createHmac('sha256', cacheKey).update(text).digest('base64');

  function remember(key: string, principal: Principal): void {
    setBounded(verified, key, { userId: principal.user.id, integratorKey: principal.integratorKey }, cacheCapacity);
  }

  function usable(user: UserRecord | undefined, integratorKey: string): Principal {
    if (!user) throw apiErrors.authenticationFailed();
    const account = accounts.account(user.accountId);
    if (!account || account.status === 'deleted')
      throw apiErrors.authenticationFailed('The account of this user has been deleted.');
    if (user.closedAt !== null && user.closedAt !== undefined)
      throw apiErrors.authenticationFailed('This user has been closed in its account (DELETE …/users).');
    if (!user.activated || account.status === 'pending') {
      throw apiErrors.authenticationFailed(
        'The account has not been activated yet: its initial user must open the activation link of its activation message (GET /sandbox/outbox).',
      );
    }
    return { user, account, integratorKey };
  }

  /** The principal of a known user, read again only when accounts or users may have changed since. */
  function principalOf(userId: string, integratorKey: string): Principal {
    const key = `${userId}\u0000${integratorKey}`;
    const stamp = accounts.changeStamp();
    const cached = principals.get(key);
    if (cached?.stamp === stamp) return cached.principal;
    const principal = usable(accounts.user(userId), integratorKey);
    setBounded(principals, key, { stamp, principal }, cacheCapacity);
    return principal;
  }

  /** The X-DocuSign-Authentication header; throws USER_AUTHENTICATION_FAILED when there is none. */
  function headerOf(headers: AuthHeaders): string {
    const raw = headers['x-docusign-authentication'];
    const header = Array.isArray(raw) ? raw[0] : raw;
    if (!header) {
      throw apiErrors.authenticationFailed(
        'No X-DocuSign-Authentication header or Authorization: Bearer token was sent.',
      );
    }
    return header;
  }

  /** Finds the user a username designates: userId, userName or email. */
  function candidates(username: string): UserRecord[] {
    const byId = accounts.user(username.toLowerCase());
    return byId ? [byId] : accounts.usersNamed(username);
  }

  return {
    /** Verifies username + password + integrator key (used by login and the token endpoint). */
    async verifyCredentials(username: string, password: string, integratorKey: string): Promise<Principal> {
      const key = keyOf(`${username}\u0000${password}\u0000${integratorKey}`);
      const cached = verified.get(key);
      // A cached entry was verified with this very integrator key (keys are never removed).
      if (cached !== undefined) return principalOf(cached.userId, integratorKey);
      if (!accounts.hasIntegratorKey(integratorKey))
        throw apiErrors.authenticationFailed('The integrator key is not known.');
      for (const user of candidates(username)) {
        if (await verifyPassword(password, user.passwordHash)) {
          const principal = usable(user, integratorKey);
          remember(key, principal);
          return principal;
        }
      }
      throw apiErrors.authenticationFailed();
    },

    /**
     * As `authenticate`, without a promise, when the answer needs no password
     * check: a bearer token, a header verified before, or no credentials at
     * all (each answered or refused at once). Undefined when a password must
     * be verified (scrypt, asynchronous): then `authenticate`. Every API call
     * asks; its hook need not be async for the few that verify a password.
     */
    authenticateKnown(headers: AuthHeaders): Principal | undefined {
      const authorization = headers.authorization;
      if (authorization && /^bearer\s+/i.test(authorization)) {
        const token = authorization.replace(/^bearer\s+/i, '').trim();
        const row = accessToken.get(hashToken(token));
        if (!row || row.expires_at < clock.now())
          throw apiErrors.authenticationFailed('The access token is not valid or has expired.');
        return principalOf(row.user_id, row.integrator_key);
      }
      const header = headerOf(headers);
      // The same header again (every call of a client): no parsing. The \u0001 keeps these keys apart from the credentials' keys.
      const known = verified.get(keyOf(`\u0001${header}`));
      return known === undefined ? undefined : principalOf(known.userId, known.integratorKey);
    },

    /** Authenticates a request from its headers; throws USER_AUTHENTICATION_FAILED (401). */
    async authenticate(headers: AuthHeaders): Promise<Principal> {
      const known = this.authenticateKnown(headers);
      if (known !== undefined) return known;
      const header = headerOf(headers);
      const headerKey = keyOf(`\u0001${header}`);
      const credentials = parseCredentialsHeader(header);
      if (!credentials)
        throw apiErrors.authenticationFailed(
          'The X-DocuSign-Authentication header is not valid JSON or XML with Username, Password and IntegratorKey.',
        );
      const principal = await this.verifyCredentials(
        credentials.username,
        credentials.password,
        credentials.integratorKey,
      );
      remember(headerKey, principal);
      return principal;
    },

    /** Forgets cached verifications (after a password or account change). */
    clearCache(): void {
      verified.clear();
      principals.clear();
    },
  };
}
