import type { Auth } from '../../client/auth.js';
import { inVersion } from '../../client/api-version.js';
import { checkServerAddress } from '../../client/credential-destinations.js';
import { AccountClient, type EsignatureClient } from '../../client/esignature-client.js';
import { fetchUserInfo } from '../../client/oauth/userinfo.js';
import type { LoginAccount } from '../../client/wire-types.js';
import { SignrunError } from '../../errors/signrun-error.js';

/** An account the configured credentials reach, as their login lists it. */
export interface ReachableAccount {
  accountId: string;
  name?: string;
  isDefault: boolean;
}

/** The account `signrun import account` reads, logged in. */
export interface ReachedAccount {
  account: AccountClient;
  /** The name the login gave it, if any. */
  name?: string;
  /** The email of the user logged in, if the login gave it. */
  email?: string;
}

const tag = 'import-account';

/**
 * Logs in to the account to import: the configured one (the default of the
 * login, as `signrun plan` works in it) when `reference` is absent, else the
 * account of the login whose accountId, or exact name, is `reference` — the
 * accounts the credentials reach: login_information's loginAccounts, or with
 * the JWT grant userinfo's accounts (the same user acting in that account,
 * as the account pipeline acts for a subsidiary's user with
 * `EsignatureClient.asUser`). A subsidiary whose users do not include the
 * configured one is not reached: its own user's credentials are needed
 * (SR_IMPORT_ACCOUNT_NOT_FOUND says so, listing the accounts reached).
 */
export async function reachAccount(
  client: EsignatureClient,
  auth: Auth,
  reference: string | undefined,
): Promise<ReachedAccount> {
  if (auth.kind === 'oauth') {
    const session = auth.session;
    if (reference === undefined) {
      const found = await session.account();
      const account = await client.login({ tag });
      return { account, ...(found.accountName ? { name: found.accountName } : {}), ...emailOf(found.email) };
    }
    const info = await fetchUserInfo(session.settings.base, await session.tokens.token());
    const chosen = choose(
      info.accounts.map((a) => ({
        accountId: a.account_id,
        ...(a.account_name ? { name: a.account_name } : {}),
        isDefault: String(a.is_default) === 'true',
      })),
      reference,
    );
    const account = await client.asUser({ userId: info.sub, accountId: chosen.accountId }).login({ tag });
    return { account, ...(chosen.name ? { name: chosen.name } : {}), ...emailOf(info.email) };
  }
  const info = await client.loginInformation({ tag });
  const listed = (info.loginAccounts ?? []).filter((a): a is LoginAccount => typeof a.accountId === 'string');
  if (reference === undefined) {
    const account = await client.login({ tag });
    const same = listed.find((a) => a.accountId === account.accountId);
    return { account, ...(same?.name ? { name: same.name } : {}), ...emailOf(same?.email) };
  }
  const chosen = choose(
    listed.map((a) => ({
      accountId: a.accountId,
      ...(a.name ? { name: a.name } : {}),
      isDefault: a.isDefault === 'true',
    })),
    reference,
  );
  const login = listed.find((a) => a.accountId === chosen.accountId)!;
  // As EsignatureClient.login does for the default account: the password goes to baseUrl on every call.
  if (login.baseUrl)
    checkServerAddress(login.baseUrl, { configured: client.rootUrl, namedBy: "login_information's baseUrl" });
  const version = client.apiVersion;
  const account = new AccountClient(
    client,
    login.baseUrl && version !== 'v2' ? { ...login, baseUrl: inVersion(login.baseUrl, version) } : login,
  );
  return { account, ...(login.name ? { name: login.name } : {}), ...emailOf(login.email) };
}

const emailOf = (email: string | undefined) => (email ? { email } : {});

/** The account of that accountId, else the one of exactly that name (case included). */
export function choose(accounts: readonly ReachableAccount[], reference: string): ReachableAccount {
  const byId = accounts.find((a) => a.accountId === reference);
  if (byId) return byId;
  const named = accounts.filter((a) => a.name === reference);
  if (named.length === 1) return named[0]!;
  const shown = (list: readonly ReachableAccount[]) =>
    list.map((a) => `"${a.name ?? '(no name)'}" (${a.accountId}${a.isDefault ? ', default' : ''})`).join(', ');
  if (named.length > 1)
    throw new SignrunError(
      'SR_IMPORT_ACCOUNT_AMBIGUOUS',
      `${named.length} accounts these credentials reach are named "${reference}": ${shown(named)}; import one by its accountId: npx signrun import account ${named[0]!.accountId}`,
      { details: { reference, accountIds: named.map((a) => a.accountId) } },
    );
  throw new SignrunError(
    'SR_IMPORT_ACCOUNT_NOT_FOUND',
    `the configured credentials reach no account with accountId or name "${reference}"; they reach ${
      accounts.length > 0 ? shown(accounts) : 'no account'
    }. To import a subsidiary whose users you are not one of, log in as its user (DOCUSIGN_USERNAME=<its userId> and DOCUSIGN_PASSWORD, or DOCUSIGN_USER_ID with the JWT grant), then: npx signrun import account ${shellWord(reference)}`,
    { details: { reference, reachable: accounts } },
  );
}

/** A name as one word of a POSIX shell command line, so the command given can be pasted as it is. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9._@:/+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
