import type { SandboxDatabase } from '../platform/db/open-database.js';

/** The account server's record of consent, as its other users (the seed) may use it. */
export type OAuthConsents = ReturnType<typeof oauthConsents>;

/**
 * Who allowed which integration key to act for them, per scope (DocuSign's
 * consent): granted on the consent page or by a seed (`oauthConsents` of a
 * seed user), checked by the JWT grant. The one way into the
 * `oauth_consents` table, so the seed need not know the account server's
 * storage.
 */
export function oauthConsents(db: SandboxDatabase) {
  const consent = db.prepare<[string, string, string], { n: number }>(
    'SELECT 1 AS n FROM oauth_consents WHERE integrator_key = ? AND user_id = ? AND scope = ?',
  );
  const insert = db.prepare(
    'INSERT OR IGNORE INTO oauth_consents (integrator_key, user_id, scope, created_at) VALUES (?, ?, ?, ?)',
  );
  return {
    /** Scopes among `scopes` that the user has not consented to for this integration key. */
    missing(integratorKey: string, userId: string, scopes: readonly string[]): string[] {
      return scopes.filter((scope) => consent.get(integratorKey, userId, scope) === undefined);
    },

    /** Records the user's consent to `scopes` for the integration key (again is harmless). */
    grant(integratorKey: string, userId: string, scopes: readonly string[], now: number): void {
      db.transaction(() => {
        for (const scope of scopes) insert.run(integratorKey, userId, scope, now);
      })();
    },
  };
}
