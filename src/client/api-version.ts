/**
 * The eSignature REST API version signrun speaks: `v2.1` (what DocuSign
 * maintains, and the default) or `v2` (frozen since 2022; kept for old
 * setups and legacy-header logins). The wire shapes that differ are read by
 * the client (e.g. envelopeDocument.pages: a string in v2, a list of pages
 * in v2.1).
 */
export type ApiVersion = 'v2' | 'v2.1';

export const apiVersions: readonly ApiVersion[] = ['v2.1', 'v2'];

const versioned = /\/restapi\/(v2(?:\.1)?)(?=\/|$)/;

/** The version a root URL names (`…/restapi/v2.1` → v2.1); undefined when it names none. */
export function versionOfRoot(rootUrl: string): ApiVersion | undefined {
  const m = versioned.exec(rootUrl);
  return m ? (m[1] as ApiVersion) : undefined;
}

/** The same address in another version (`…/restapi/v2/accounts/1` → `…/restapi/v2.1/accounts/1`). */
export function inVersion(url: string, version: ApiVersion): string {
  return url.replace(versioned, `/restapi/${version}`);
}

/** The API root of a server origin (userinfo's base_uri): `https://demo.docusign.net` → `…/restapi/v2.1`. */
export function apiRootOf(baseUri: string, version: ApiVersion): string {
  return `${baseUri.replace(/\/+$/, '')}/restapi/${version}`;
}
