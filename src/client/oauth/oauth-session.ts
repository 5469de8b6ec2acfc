import type { Secret } from '../../secret.js';
import type { OAuthBase } from './oauth-base.js';
import { jwtScopes, readPrivateKey } from './jwt-assertion.js';
import { JwtTokenProvider } from './token-provider.js';
import { chooseAccount, fetchUserInfo, UserInfoUnauthorized, type DiscoveredAccount } from './userinfo.js';
import { SignrunError } from '../../errors/signrun-error.js';

/** The settings of DocuSign's JWT grant (from the configuration; the client reads no file). */
export interface JwtGrantSettings {
  integrationKey: string;
  /** The user to act for: their API user id (GUID). */
  userId: string;
  privateKey: Secret;
  base: OAuthBase;
  /** The account to work in; absent: the user's default account. */
  accountId?: string;
  /** The scopes asked for; absent: the eSignature API's (jwt-assertion.ts). */
  scope?: string;
}

export interface OAuthSessionOptions {
  /** Default Date.now (token renewal). */
  now?: () => number;
  /** Renewal margin before expiry, ms. */
  marginMs?: number;
  onMint?: (info: { expiresAt: number }) => void;
}

/**
 * One login of DocuSign's JWT grant for a run: the shared token provider and
 * the account found with `/oauth/userinfo`, asked once (DocuSign
 * rate-limits userinfo) however many callers want it.
 */
export class OAuthSession {
  readonly settings: JwtGrantSettings;
  readonly tokens: JwtTokenProvider;
  readonly #options: OAuthSessionOptions;
  #account: Promise<DiscoveredAccount> | undefined;

  constructor(settings: JwtGrantSettings, options: OAuthSessionOptions = {}) {
    this.settings = settings;
    this.#options = options;
    let key;
    try {
      key = readPrivateKey(settings.privateKey);
    } catch (error) {
      throw new SignrunError(
        'SR_CONFIG_PRIVATE_KEY',
        `the private key for the JWT grant cannot be used: ${(error as Error).message}`,
      );
    }
    this.tokens = new JwtTokenProvider({
      base: settings.base,
      integrationKey: settings.integrationKey,
      userId: settings.userId,
      key,
      ...(options.now ? { now: options.now } : {}),
      ...(options.marginMs === undefined ? {} : { marginMs: options.marginMs }),
      ...(options.onMint ? { onMint: options.onMint } : {}),
      ...(settings.scope ? { scope: settings.scope } : {}),
    });
  }

  /** The account to work in, from userinfo (asked once; a 401 renews the token once). */
  account(): Promise<DiscoveredAccount> {
    if (!this.#account) {
      const asked = this.#discover();
      // A failed discovery is not kept: the next caller asks again.
      asked.catch(() => {
        if (this.#account === asked) this.#account = undefined;
      });
      this.#account = asked;
    }
    return this.#account;
  }

  async #discover(): Promise<DiscoveredAccount> {
    const token = await this.tokens.token();
    let info;
    try {
      info = await fetchUserInfo(this.settings.base, token);
    } catch (error) {
      if (!(error instanceof UserInfoUnauthorized)) throw error;
      try {
        info = await fetchUserInfo(this.settings.base, await this.tokens.renew(token));
      } catch (again) {
        if (!(again instanceof UserInfoUnauthorized)) throw again;
        // A token the account server has just minted, refused by its own userinfo: not something a retry mends.
        throw new SignrunError(
          'SR_AUTH_GRANT_REFUSED',
          `GET ${this.settings.base.origin}/oauth/userinfo refused (401) a token ${this.settings.base.origin} had just issued, twice`,
          { details: { status: 401, oauthBase: this.settings.base.origin } },
        );
      }
    }
    // userinfo's base_uri is where the token will go on every call: it must pass the credentials rule.
    return chooseAccount(info, this.settings.accountId, this.settings.base);
  }

  /**
   * The same integration key and private key acting for another user (the
   * initial user of a subsidiary account, to delete it), in that account.
   * That user must have consented too (or the organisation for them).
   */
  forUser(userId: string, accountId: string): OAuthSession {
    return new OAuthSession({ ...this.settings, userId, accountId }, this.#options);
  }

  /**
   * The same user with more scopes (the Admin API's, beside the eSignature
   * ones): a token of its own, so that the run's other calls keep the
   * token they were given.
   */
  withScopes(extra: readonly string[]): OAuthSession {
    const scope = [...new Set([...(this.settings.scope ?? jwtScopes).split(' '), ...extra])].join(' ');
    return new OAuthSession({ ...this.settings, scope }, this.#options);
  }
}
