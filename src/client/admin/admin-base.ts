import { docusignAccountServers, parseOAuthBase } from '../oauth/oauth-base.js';

/** DocuSign's Admin API bases, by the environment of the account server (DESIGN.md, "Organisations as code"). */
export const docusignAdminBases = {
  demo: 'https://api-d.docusign.net/management',
  production: 'https://api.docusign.net/management',
} as const;

/**
 * Where the Admin API is: `DOCUSIGN_ADMIN_BASE` when given; else DocuSign's
 * for DocuSign's account servers (`api-d.docusign.net/management` for
 * `account-d.docusign.com`, `api.docusign.net/management` for
 * `account.docusign.com`); else the `/management` of the OAuth base's
 * origin (a sandbox's), or of the eSignature root's origin (the in-process
 * sandbox, or a `signrun serve` logged in with the legacy header).
 */
export function adminBaseOf(where: { adminBase?: string; oauthBase?: string; rootUrl: string }): string {
  if (where.adminBase) return where.adminBase.replace(/\/+$/, '');
  const oauth = where.oauthBase === undefined ? undefined : parseOAuthBase(where.oauthBase);
  if (oauth) {
    const environment = docusignAccountServers[oauth.audience.toLowerCase()];
    return environment ? docusignAdminBases[environment] : `${oauth.origin}/management`;
  }
  return `${new URL(where.rootUrl).origin}/management`;
}
