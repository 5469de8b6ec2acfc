import type { SandboxDatabase } from '../platform/db/open-database.js';

/** The account server's registered redirect URIs, as its other users (the seed) may use them. */
export type OAuthRedirectUris = ReturnType<typeof oauthRedirectUris>;

/**
 * DocuSign's consent page for developers: DocuSign registers it on every new
 * integration key, and `signrun auth consent-url` sends people back to it.
 */
export const docusignConsentPage = 'https://developers.docusign.com/platform/auth/consent';

/**
 * The redirect URIs of each integration key (DocuSign's "Redirect URIs" of
 * Apps and Keys): where /oauth/auth may send a browser back — with a code, or
 * with an error (RFC 6749 §4.1.2.1: only once the redirect URI is known
 * valid for the client; before that, an error page and no redirect). Valid
 * for a key:
 *
 * - an address registered for it (`oauthRedirectUris` of a seed), compared
 *   whole, as DocuSign compares them;
 * - DocuSign's consent page, registered on every key as DocuSign does;
 * - a loopback address (`http://127.0.0.1`, `localhost`, `[::1]`, any port
 *   and path): a program on the person's own machine (RFC 8252 §7.3), such
 *   as a test's or a CLI's local listener. It sends nothing off the machine.
 *
 * A key with none registered (the built-in seed's) is lenient, as the
 * sandbox always was: after the person has signed in and answered on the
 * page (which names where the browser goes next), any http(s) address is
 * taken. A key with registered ones is strict, as DocuSign is. Errors before
 * that answer redirect only to a valid one in both cases.
 */
export function oauthRedirectUris(db: SandboxDatabase) {
  const registered = db.prepare<[string, string], { n: number }>(
    'SELECT 1 AS n FROM oauth_redirect_uris WHERE integrator_key = ? AND redirect_uri = ?',
  );
  const any = db.prepare<[string], { n: number }>(
    'SELECT 1 AS n FROM oauth_redirect_uris WHERE integrator_key = ? LIMIT 1',
  );
  const insert = db.prepare('INSERT OR IGNORE INTO oauth_redirect_uris (integrator_key, redirect_uri) VALUES (?, ?)');
  return {
    /** True when the browser may be sent back to `uri` for this integration key. */
    allowed(integratorKey: string, uri: string): boolean {
      if (uri === docusignConsentPage || isLoopbackRedirect(uri)) return true;
      return registered.get(integratorKey, uri) !== undefined;
    },

    /** True when the integration key has redirect URIs of its own (then no other address is taken). */
    hasRegistered(integratorKey: string): boolean {
      return any.get(integratorKey) !== undefined;
    },

    /** Registers `uris` for the integration key (again is harmless). */
    register(integratorKey: string, uris: readonly string[]): void {
      db.transaction(() => {
        for (const uri of uris) insert.run(integratorKey, uri);
      })();
    },
  };
}

/** http(s) on this machine's loopback, without user info. */
function isLoopbackRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(url.hostname);
}
