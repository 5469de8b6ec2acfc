import { OAuthError } from './oauth-error.js';

/**
 * The OAuth scopes DocuSign's account server documents, grouped by the API
 * that defines them. Sources (read 2026-11-26):
 * - https://developers.docusign.com/platform/auth/reference/scopes
 *   (impersonation, extended, signature, openid, cors, click.manage, click.send);
 * - https://developers.docusign.com/orgadmin-api/guides/auth (the Admin API's);
 * - https://developers.docusign.com/docs/rooms-api/rooms101/auth (the Rooms API's dtr.* and room_forms);
 * - https://developers.docusign.com/docs/notary-api/notary101/auth (notary_*);
 * - https://developers.docusign.com/docs/web-forms-api/ (webforms_*; its Swagger's securityDefinitions);
 * - https://developers.docusign.com/docs/navigator-api/auth/ (adm_store_*, document_uploader_*, …);
 * - aow_manage (Maestro), and OpenID Connect's email and profile, which the account server answers in userinfo.
 * DocuSign's own Node examples ask for many of them in one JWT grant
 * (code-examples-node: sixteen in lib/common/DSJwtAuth.js, thirty-one in
 * lib/DSJwtAuth.js, the sub-account ones among them); a scope outside this
 * list is `invalid_scope`, as DocuSign answers it.
 *
 * Only `signature` opens the eSignature API, which is all the sandbox
 * serves: the others are granted (after consent) and carried by the token,
 * as DocuSign grants them to an integration, and open nothing more here.
 */
export const documentedScopes = {
  platform: ['signature', 'impersonation', 'extended', 'openid', 'cors', 'email', 'profile'],
  click: ['click.manage', 'click.send'],
  admin: [
    'organization_read',
    'group_read',
    'permission_read',
    'user_read',
    'user_write',
    'account_read',
    'account_write',
    'domain_read',
    'identity_provider_read',
    'user_data_redact',
    'asset_group_account_read',
    'asset_group_account_clone_write',
    'asset_group_account_clone_read',
    'connect_org_config_read_api',
    'organization_sub_account_read',
    'organization_sub_account_write',
  ],
  rooms: [
    'dtr.rooms.read',
    'dtr.rooms.write',
    'dtr.documents.read',
    'dtr.documents.write',
    'dtr.profile.read',
    'dtr.profile.write',
    'dtr.company.read',
    'dtr.company.write',
    'room_forms',
  ],
  notary: ['notary_read', 'notary_write'],
  webForms: ['webforms_read', 'webforms_instance_read', 'webforms_instance_write'],
  maestro: ['aow_manage'],
  navigator: [
    'adm_store_unified_repo_read',
    'adm_store_unified_repo_write',
    'document_uploader_read',
    'document_uploader_write',
    'public_dms_document_read',
    'search_read',
  ],
} as const;

/** Every scope of {@link documentedScopes}. */
export const knownScopes: ReadonlySet<string> = new Set(Object.values(documentedScopes).flat());

/** DocuSign's default when a request names no scope. */
export const defaultScope = 'signature';

/** Splits a space-separated scope parameter (duplicates dropped, order kept); invalid_scope for a word DocuSign does not document. */
export function parseScopes(scope: string | undefined): string[] {
  const words = [...new Set((scope ?? defaultScope).split(/[\s+]+/).filter((w) => w !== ''))];
  if (words.length === 0) return [defaultScope];
  const unknown = words.filter((w) => !knownScopes.has(w));
  if (unknown.length > 0) {
    // The unknown words only: the whole list would make the message unreadable.
    throw new OAuthError(400, 'invalid_scope', `unknown scope ${unknown.join(' ')}`);
  }
  return words;
}
