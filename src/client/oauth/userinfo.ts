import type { Secret } from '../../secret.js';
import { SignrunError } from '../../errors/signrun-error.js';
import type { OAuthBase } from './oauth-base.js';
import { checkServerAddress, fetchWithinOrigin } from '../credential-destinations.js';

/** One account of `GET /oauth/userinfo`. */
export interface UserInfoAccount {
  account_id: string;
  is_default?: boolean | string;
  account_name?: string;
  /** e.g. https://demo.docusign.net: the server of the account's region. */
  base_uri: string;
}

/** DocuSign's `GET /oauth/userinfo` answer (fields signrun reads). */
export interface UserInfo {
  sub: string;
  name?: string;
  email?: string;
  accounts: UserInfoAccount[];
}

/** The account a run works in, as userinfo gave it. */
export interface DiscoveredAccount {
  accountId: string;
  accountName?: string;
  /** Origin of the account's server, e.g. https://na3.docusign.net (userinfo's base_uri). */
  baseUri: string;
  userId: string;
  userName?: string;
  email?: string;
}

/** Thrown when userinfo refused the token (401), so the caller can renew it once. */
export class UserInfoUnauthorized extends Error {}

/** `GET {oauth base}/oauth/userinfo` with the access token. */
export async function fetchUserInfo(base: OAuthBase, token: Secret): Promise<UserInfo> {
  const url = `${base.origin}/oauth/userinfo`;
  let status: number;
  let text: string;
  try {
    const response = await fetchWithinOrigin({
      url,
      method: 'GET',
      headers: { Authorization: `Bearer ${token.reveal()}`, Accept: 'application/json' },
      refusedCode: 'SR_AUTH_REDIRECT_REFUSED',
      shown: url,
      badRedirect: (reason) =>
        new SignrunError('SR_AUTH_SERVER_UNREACHABLE', `GET ${url} answered ${reason}`, {
          details: { oauthBase: base.origin },
        }),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (error instanceof SignrunError) throw error;
    const code = (error as { code?: string }).code;
    throw new SignrunError('SR_AUTH_SERVER_UNREACHABLE', `GET ${url} failed (${code ?? 'network error'})`, {
      details: { oauthBase: base.origin },
    });
  }
  if (status === 401) throw new UserInfoUnauthorized('userinfo answered 401');
  let info: Partial<UserInfo> | undefined;
  try {
    info = JSON.parse(text) as Partial<UserInfo>;
  } catch {
    info = undefined;
  }
  if (status < 200 || status > 299 || !info || typeof info.sub !== 'string' || !Array.isArray(info.accounts)) {
    throw new SignrunError(
      'SR_AUTH_SERVER_UNREACHABLE',
      `GET ${url} answered ${status} without DocuSign's userinfo (sub, accounts)`,
      { details: { status, oauthBase: base.origin } },
    );
  }
  return info as UserInfo;
}

/**
 * The configured account of the user, else their default one (else the
 * first). DocuSign writes is_default as a boolean; older answers as "true".
 * Its base_uri must be a server the credentials may go to (SR_BASE_URI_REFUSED).
 */
export function chooseAccount(info: UserInfo, accountId: string | undefined, base: OAuthBase): DiscoveredAccount {
  const accounts = info.accounts.filter((a) => typeof a?.account_id === 'string' && typeof a.base_uri === 'string');
  const listed = accounts.map((a) => `${a.account_id}${a.account_name ? ` (${a.account_name})` : ''}`).join(', ');
  const chosen =
    accountId !== undefined
      ? accounts.find((a) => a.account_id === accountId)
      : (accounts.find((a) => a.is_default === true || a.is_default === 'true') ?? accounts[0]);
  if (!chosen) {
    throw new SignrunError(
      'SR_AUTH_ACCOUNT_NOT_FOUND',
      accountId !== undefined
        ? `the user ${info.sub} has no account ${accountId} (DOCUSIGN_ACCOUNT_ID); their accounts: ${listed || '(none)'}`
        : `the user ${info.sub} has no eSignature account`,
      { details: { userId: info.sub, accounts: accounts.map((a) => a.account_id) } },
    );
  }
  // The token goes to base_uri on every call: https (http on loopback or the account server's own origin), and
  // a DocuSign domain when the account server is DocuSign's (credential-destinations.ts).
  const server = checkServerAddress(chosen.base_uri, { configured: base.origin, namedBy: "userinfo's base_uri" });
  return {
    accountId: chosen.account_id,
    ...(chosen.account_name ? { accountName: chosen.account_name } : {}),
    baseUri: server.href.replace(/\/+$/, ''),
    userId: info.sub,
    ...(info.name ? { userName: info.name } : {}),
    ...(info.email ? { email: info.email } : {}),
  };
}
