import type { KeyObject } from 'node:crypto';
import type { Secret } from '../../secret.js';
import { makeSecret } from '../../secret.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { grantError, type GrantContext } from './grant-errors.js';
import { jwtScopes, signAssertion } from './jwt-assertion.js';
import { fetchWithinOrigin } from '../credential-destinations.js';

/** An access token and when it stops working (ms since the epoch, this machine's clock). */
export interface AccessToken {
  token: Secret;
  expiresAt: number;
  scope?: string;
}

interface Minted extends AccessToken {
  /** When it was received (this machine's clock). */
  mintedAt: number;
}

export interface TokenProviderOptions extends GrantContext {
  key: KeyObject;
  /** Default Date.now. */
  now?: () => number;
  /** Renew this long before expiry (capped at a quarter of the token's life). Default 5 min. */
  marginMs?: number;
  /** Called after each token request, with no token in it (for counting and logs). */
  onMint?: (info: { expiresAt: number }) => void;
  /** The scopes asked for; default {@link jwtScopes} (the eSignature API). */
  scope?: string;
}

/**
 * The access token of DocuSign's JWT grant, shared by every request of a run:
 * minted on first use, renewed before it expires, and renewed on a 401 —
 * one request to the account server at a time, however many calls wait for
 * it. The token only leaves as a Secret.
 */
export class JwtTokenProvider {
  readonly #options: TokenProviderOptions;
  readonly #now: () => number;
  #current: Minted | undefined;
  #pending: Promise<Minted> | undefined;

  constructor(options: TokenProviderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The token to send now: the current one while it has margin left, else a new one. */
  async token(): Promise<Secret> {
    return (await this.current()).token;
  }

  /** The current token with its expiry, minted or renewed when needed. */
  async current(): Promise<AccessToken> {
    const c = this.#current;
    if (c && this.#now() < c.expiresAt - this.#margin(c)) return c;
    return this.#mint();
  }

  /**
   * The service refused `rejected` (401): a new token, unless another call
   * renewed it already (then that one). Many calls refused together cause
   * one token request.
   */
  async renew(rejected: Secret): Promise<Secret> {
    if (this.#pending) return (await this.#pending).token;
    if (this.#current && this.#current.token !== rejected) return this.token();
    this.#current = undefined;
    return (await this.#mint()).token;
  }

  /** When the current token expires (undefined before the first). */
  get expiresAt(): number | undefined {
    return this.#current?.expiresAt;
  }

  #margin(token: Minted): number {
    const life = token.expiresAt - token.mintedAt;
    return Math.min(this.#options.marginMs ?? 5 * 60_000, Math.max(0, life / 4));
  }

  #mint(): Promise<Minted> {
    this.#pending ??= this.#request().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #request(): Promise<Minted> {
    const o = this.#options;
    const assertion = await signAssertion(
      {
        integrationKey: o.integrationKey,
        userId: o.userId,
        audience: o.base.audience,
        scope: o.scope ?? jwtScopes,
        issuedAt: Math.floor(Date.now() / 1000),
        lifetimeSeconds: 3600,
      },
      o.key,
    );
    const url = `${o.base.origin}/oauth/token`;
    const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    let status: number;
    let text: string;
    try {
      // The assertion is a credential (redeemable for an hour): it goes to the configured account server only.
      const response = await fetchWithinOrigin({
        url,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: body.toString(),
        refusedCode: 'SR_AUTH_REDIRECT_REFUSED',
        shown: url,
        badRedirect: (reason) =>
          new SignrunError('SR_AUTH_SERVER_UNREACHABLE', `POST ${url} answered ${reason}`, {
            details: { oauthBase: o.base.origin },
          }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (error instanceof SignrunError) throw error;
      const code = (error as { code?: string }).code;
      throw new SignrunError(
        'SR_AUTH_SERVER_UNREACHABLE',
        `the account server ${url} could not be reached (${code ?? 'network error'})`,
        {
          details: { oauthBase: o.base.origin, ...(code ? { systemCode: code } : {}) },
        },
      );
    }
    let json: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
    } catch {
      // not JSON: not an account server (wrong DOCUSIGN_OAUTH_BASE)
    }
    if (status < 200 || status > 299) {
      if (json && (typeof json['error'] === 'string' || typeof json['error_description'] === 'string')) {
        throw grantError(status, json, o);
      }
      throw new SignrunError(
        'SR_AUTH_SERVER_UNREACHABLE',
        `POST ${url} answered ${status}${json ? '' : ' (not JSON)'}: ${o.base.origin} does not look like DocuSign's account server`,
        { details: { status, oauthBase: o.base.origin } },
      );
    }
    const token = json?.['access_token'];
    const expiresIn = Number(json?.['expires_in']);
    if (typeof token !== 'string' || token === '' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new SignrunError(
        'SR_AUTH_SERVER_UNREACHABLE',
        `POST ${url} answered ${status} without access_token and expires_in`,
        { details: { status, oauthBase: o.base.origin } },
      );
    }
    const mintedAt = this.#now();
    const minted: Minted = {
      token: makeSecret(token),
      expiresAt: mintedAt + expiresIn * 1000,
      mintedAt,
      ...(typeof json?.['scope'] === 'string' ? { scope: json['scope'] } : {}),
    };
    this.#current = minted;
    o.onMint?.({ expiresAt: minted.expiresAt });
    return minted;
  }
}
