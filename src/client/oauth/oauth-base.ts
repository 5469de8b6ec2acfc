/**
 * DocuSign's account server ("OAuth base"): `account-d.docusign.com` (demo),
 * `account.docusign.com` (production), or a sandbox's `http(s)://HOST:PORT`.
 * A bare host name means https.
 */
export interface OAuthBase {
  /** e.g. https://account-d.docusign.com or http://127.0.0.1:8080 */
  origin: string;
  /** The JWT `aud`: the host, with its port when it has one (`account-d.docusign.com`, `127.0.0.1:8080`). */
  audience: string;
}

/** The two account servers of DocuSign, and the environment each one serves. */
export const docusignAccountServers: Readonly<Record<string, 'demo' | 'production'>> = {
  'account-d.docusign.com': 'demo',
  'account.docusign.com': 'production',
};

/** Parses the configured OAuth base; undefined when it is neither a host name nor an http(s) origin. */
export function parseOAuthBase(value: string): OAuthBase | undefined {
  const text = value.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname.replace(/\/+$/, '') !== '' || url.search) {
    return undefined;
  }
  return { origin: url.origin, audience: url.host };
}
