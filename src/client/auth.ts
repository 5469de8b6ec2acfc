import type { Secret } from '../secret.js';

/**
 * How the client proves who it is. `legacy` is DocuSign's
 * `X-DocuSign-Authentication` header (a JSON object with Username, Password
 * and IntegratorKey — the scheme of the Python client the API description
 * came from); `bearer` is an OAuth access token.
 */
export type Auth =
  | { kind: 'legacy'; username: string; password: Secret; integratorKey: string }
  | { kind: 'bearer'; accessToken: Secret };

/** Header names whose values are never shown anywhere (errors, logs, reports). */
export const secretHeaderNames: ReadonlySet<string> = new Set(['authorization', 'x-docusign-authentication']);

/** The headers that carry `auth` on the wire. Call only where the request is built. */
export function authHeaders(auth: Auth): Record<string, string> {
  if (auth.kind === 'bearer') return { Authorization: `Bearer ${auth.accessToken.reveal()}` };
  return {
    'X-DocuSign-Authentication': JSON.stringify({
      Username: auth.username,
      Password: auth.password.reveal(),
      IntegratorKey: auth.integratorKey,
    }),
  };
}
