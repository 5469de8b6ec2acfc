import { createHmac, randomBytes } from 'node:crypto';
import type { AccountsRepository, UserRecord, AccountRecord } from '../repositories/accounts.js';
import type { SandboxDatabase } from '../db/open-database.js';
import type { Clock } from '../clock.js';
import { apiErrors } from '../api-error.js';
import { verifyPassword } from './password-hash.js';
import { parseCredentialsHeader } from './credentials-header.js';
import { hashToken } from '../repositories/view-tokens.js';

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
 * The user and account are re-read on every call, so a deleted account or
 * an unactivated user is refused even when cached.
 */
export type Authenticator = ReturnType<typeof createAuthenticator>;

export function createAuthenticator(db: SandboxDatabase, accounts: AccountsRepository, clock: Clock) {
  const cacheKey = randomBytes(32);
  const verified = new Map<string, string>(); // hmac → userId
  const accessToken = db.prepare<[string], { user_id: string; integrator_key: string; expires_at: number }>(
    'SELECT user_id, integrator_key, expires_at FROM access_tokens WHERE token_hash = ?',
  );

  function usable(user: UserRecord | undefined, integratorKey: string): Principal {
    if (!user) throw apiErrors.authenticationFailed();
    const account = accounts.account(user.accountId);
    if (!account || account.status === 'deleted')
      throw apiErrors.authenticationFailed('The account of this user has been deleted.');
    if (!user.activated || account.status === 'pending') {
      throw apiErrors.authenticationFailed(
        'The account has not been activated yet: its initial user must open the activation link of its activation message (GET /sandbox/outbox).',
      );
    }
    return { user, account, integratorKey };
  }

  /** Finds the user a username designates: userId, userName or email. */
  function candidates(username: string): UserRecord[] {
    const byId = accounts.user(username.toLowerCase());
    return byId ? [byId] : accounts.usersNamed(username);
  }

  return {
    /** Verifies username + password + integrator key (used by login and the token endpoint). */
    async verifyCredentials(username: string, password: string, integratorKey: string): Promise<Principal> {
      const key = createHmac('sha256', cacheKey)
        .update(`${username}\u0000${password}\u0000${integratorKey}`)
        .digest('base64');
      const cached = verified.get(key);
      // A cached entry was verified with this very integrator key (keys are never removed).
      if (cached !== undefined) return usable(accounts.user(cached), integratorKey);
      if (!accounts.hasIntegratorKey(integratorKey))
        throw apiErrors.authenticationFailed('The integrator key is not known.');
      for (const user of candidates(username)) {
        if (await verifyPassword(password, user.passwordHash)) {
          verified.set(key, user.id);
          return usable(user, integratorKey);
        }
      }
      throw apiErrors.authenticationFailed();
    },

    /** Authenticates a request from its headers; throws USER_AUTHENTICATION_FAILED (401). */
    async authenticate(headers: AuthHeaders): Promise<Principal> {
      const authorization = headers.authorization;
      if (authorization && /^bearer\s+/i.test(authorization)) {
        const token = authorization.replace(/^bearer\s+/i, '').trim();
        const row = accessToken.get(hashToken(token));
        if (!row || row.expires_at < clock.now())
          throw apiErrors.authenticationFailed('The access token is not valid or has expired.');
        return usable(accounts.user(row.user_id), row.integrator_key);
      }
      const raw = headers['x-docusign-authentication'];
      const header = Array.isArray(raw) ? raw[0] : raw;
      if (!header) {
        throw apiErrors.authenticationFailed(
          'No X-DocuSign-Authentication header or Authorization: Bearer token was sent.',
        );
      }
      const credentials = parseCredentialsHeader(header);
      if (!credentials)
        throw apiErrors.authenticationFailed(
          'The X-DocuSign-Authentication header is not valid JSON or XML with Username, Password and IntegratorKey.',
        );
      return this.verifyCredentials(credentials.username, credentials.password, credentials.integratorKey);
    },

    /** Forgets cached verifications (after a password or account change). */
    clearCache(): void {
      verified.clear();
    },
  };
}
