import type { OAuthBase } from './oauth-base.js';
import { jwtScopes } from './jwt-assertion.js';

/** Where `auth consent-url` sends the browser back by default: DocuSign's own page, registered on every new key. */
export const defaultRedirectUri = 'https://developers.docusign.com/platform/auth/consent';

/**
 * The address a person opens once to let the integration key act for them
 * (DocuSign's "individual consent": `/oauth/auth` with response_type=code).
 * The redirect URI must be one of the key's registered redirect URIs.
 */
export function consentUrl(base: OAuthBase, integrationKey: string, redirectUri: string = defaultRedirectUri): string {
  const query = [
    'response_type=code',
    `scope=${encodeURIComponent(jwtScopes)}`,
    `client_id=${encodeURIComponent(integrationKey)}`,
    `redirect_uri=${encodeURIComponent(redirectUri)}`,
  ].join('&');
  return `${base.origin}/oauth/auth?${query}`;
}
