import type { Secret } from '../secret.js';
import type { OAuthSession } from './oauth/oauth-session.js';

/**
 * How the client proves who it is. `oauth` is DocuSign's JWT grant (the
 * session mints and renews the token; the token layer turns it into a
 * bearer token per call); `bearer` is an OAuth access token minted
 * elsewhere; `legacy` is DocuSign's `X-DocuSign-Authentication` header (a
 * JSON object with Username, Password and IntegratorKey — the scheme of the
 * Python client the API description came from), which DocuSign no longer
 * accepts but the sandbox and old v2 setups do.
 */
export type Auth =
  | { kind: 'legacy'; username: string; password: Secret; integratorKey: string }
  | { kind: 'bearer'; accessToken: Secret }
  | { kind: 'oauth'; session: OAuthSession };

/** Header names whose values are never shown anywhere (errors, logs, reports). */
export const secretHeaderNames: ReadonlySet<string> = new Set(['authorization', 'x-docusign-authentication']);

/** The headers that carry `auth` on the wire. Call only where the request is built. */
export function authHeaders(auth: Auth): Record<string, string> {
  if (auth.kind === 'bearer') return { Authorization: `Bearer ${auth.accessToken.reveal()}` };
  if (auth.kind === 'oauth') throw new Error('oauth auth reaches the wire only through withAccessToken');
  return {
    'X-DocuSign-Authentication': JSON.stringify({
      Username: auth.username,
      Password: auth.password.reveal(),
      IntegratorKey: auth.integratorKey,
    }),
  };
}

/** The one-line warning for logins with the legacy header (not for the in-process sandbox). */
export const legacyAuthWarning =
  'logging in with the legacy X-DocuSign-Authentication header (username and password), which DocuSign no longer accepts; only the sandbox and old setups do. For DocuSign, set up the JWT grant: docs/docusign.md';
