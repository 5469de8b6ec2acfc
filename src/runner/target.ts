import type { SignrunConfig } from '../config/types.js';
import type { Secret } from '../jobs/model.js';
import type { RunningSandbox, SandboxOptions } from '../sandbox/contract.js';
import { legacyAuthWarning, type Auth } from '../client/auth.js';
import { apiRootOf, inVersion, versionOfRoot, type ApiVersion } from '../client/api-version.js';
import { parseOAuthBase } from '../client/oauth/oauth-base.js';
import { adminBaseOf } from '../client/admin/admin-base.js';
import { isLoopbackHost } from '../client/credential-destinations.js';
import { OAuthSession, type JwtGrantSettings } from '../client/oauth/oauth-session.js';
import type { DiscoveredAccount } from '../client/oauth/userinfo.js';
import { SignrunError } from '../errors/signrun-error.js';
import { privateSandboxWorkDelayMs } from './organization/follow-work.js';
import { makeSecret, shownUrl } from '../secret.js';

/** The service a command talks to and how it logs in. */
export interface ResolvedTarget {
  rootUrl: string;
  /** True when the sandbox was started in-process for this command. */
  sandbox: boolean;
  auth: Auth;
  distributor?: { code: string; password: Secret };
  integratorKey?: string;
  /** With the JWT grant: the account userinfo gave (asked once; the client's login reuses it). */
  account?: DiscoveredAccount;
  /** One line each, for stderr (the legacy header's end at DocuSign). Never a secret. */
  warnings: string[];
  /** DocuSign's Admin API base, for organisations (client/admin/admin-base.ts). */
  adminBase?: string;
  /** Stops the in-process sandbox, if one was started. */
  close(): Promise<void>;
}

/** The JWT grant's settings when the configuration has them all (loadConfig refuses half of them). */
export function jwtSettingsOf(config: SignrunConfig): JwtGrantSettings | undefined {
  const c = config.credentials;
  const base = c.oauthBase === undefined ? undefined : parseOAuthBase(c.oauthBase);
  if (!c.integratorKey || !c.userId || !c.privateKey || !base) return undefined;
  return {
    integrationKey: c.integratorKey,
    userId: c.userId,
    privateKey: c.privateKey,
    base,
    ...(c.accountId ? { accountId: c.accountId } : {}),
  };
}

/** The version to speak: the root URL's own, else the configured one, else v2.1. */
export function apiVersionOf(config: SignrunConfig): ApiVersion {
  return (config.rootUrl ? versionOfRoot(config.rootUrl) : undefined) ?? config.apiVersion ?? 'v2.1';
}

/**
 * The credentials of the sandbox's built-in seed (DESIGN.md, "Sandbox
 * default seed"): what `run` logs in with when it starts the sandbox itself.
 */
export const sandboxSeedCredentials = {
  username: 'sandbox@signrun.test',
  password: 'sandbox-password',
  integratorKey: 'sandbox-integrator-key',
  distributorCode: 'SANDBOX-DISTRIBUTOR',
  distributorPassword: 'sandbox-distributor-password',
} as const;

/** The seed user's legacy authentication, as `run` uses it against a sandbox it knows to be seeded. */
export function sandboxSeedAuth(integratorKey: string = sandboxSeedCredentials.integratorKey): Auth {
  const s = sandboxSeedCredentials;
  return { kind: 'legacy', username: s.username, password: makeSecret(s.password), integratorKey };
}

/**
 * From the configuration: with the JWT grant configured, DocuSign's account
 * server mints the token and userinfo gives the account and its root
 * (base_uri + /restapi/v2.1, or the configured root URL when it is on that
 * server); else the configured service with its credentials (bearer token
 * first, else the legacy username/password/integrator key, with a warning;
 * for a loopback root URL with none configured, a local `signrun serve`, the
 * default seed's); or — with neither — a sandbox started in-process on a free
 * loopback port, logged in with its seed's credentials. The in-process
 * sandbox keeps the legacy header: it lives only for this command, so there
 * is no key pair to make and no consent to give, and nothing of it leaves
 * the machine; it speaks v2.1 like DocuSign (login_information is asked on
 * v2's path, which v2.1 lacks).
 */
export async function resolveTarget(
  config: SignrunConfig,
  startSandbox: (options: SandboxOptions) => Promise<RunningSandbox>,
  sessionOptions: ConstructorParameters<typeof OAuthSession>[1] = {},
): Promise<ResolvedTarget> {
  const target = await resolveService(config, startSandbox, sessionOptions);
  const c = config.credentials;
  const adminBase = adminBaseOf({
    ...(c.adminBase ? { adminBase: c.adminBase } : {}),
    ...(c.oauthBase ? { oauthBase: c.oauthBase } : {}),
    rootUrl: target.rootUrl,
  });
  return { ...target, adminBase };
}

async function resolveService(
  config: SignrunConfig,
  startSandbox: (options: SandboxOptions) => Promise<RunningSandbox>,
  sessionOptions: ConstructorParameters<typeof OAuthSession>[1],
): Promise<ResolvedTarget> {
  const c = config.credentials;
  const version = apiVersionOf(config);
  const jwt = jwtSettingsOf(config);
  if (jwt) return resolveJwtTarget(config, jwt, version, sessionOptions);
  if (!config.rootUrl) {
    // Its Admin work (account creation, cloning, imports) is due under the run's first look, not in
    // the served sandbox's second: nobody else sees this sandbox.
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      quiet: true,
      workDelayMs: privateSandboxWorkDelayMs,
    });
    const s = sandboxSeedCredentials;
    return {
      rootUrl: inVersion(sandbox.rootUrl, version),
      sandbox: true,
      warnings: [],
      auth: sandboxSeedAuth(),
      distributor: {
        code: c.distributorCode ?? s.distributorCode,
        password: c.distributorPassword ?? makeSecret(s.distributorPassword),
      },
      integratorKey: s.integratorKey,
      close: () => sandbox.close(),
    };
  }
  let auth: Auth;
  let seedDistributor: { code: string; password: Secret } | undefined;
  const warnings: string[] = [];
  if (c.accessToken) auth = { kind: 'bearer', accessToken: c.accessToken };
  else if (c.username && c.password && c.integratorKey) {
    auth = { kind: 'legacy', username: c.username, password: c.password, integratorKey: c.integratorKey };
    warnings.push(legacyAuthWarning);
  } else if (!c.username && !c.password && isLoopback(config.rootUrl)) {
    // A `signrun serve` on this machine with no credentials configured: its default seed's.
    const s = sandboxSeedCredentials;
    auth = sandboxSeedAuth(c.integratorKey);
    seedDistributor = { code: s.distributorCode, password: makeSecret(s.distributorPassword) };
  } else {
    const missing = [
      !c.username && 'DOCUSIGN_USERNAME',
      !c.password && 'DOCUSIGN_PASSWORD',
      !c.integratorKey && 'DOCUSIGN_INTEGRATOR_KEY',
    ]
      .filter(Boolean)
      .join(', ');
    throw new SignrunError(
      'SR_CREDENTIALS_MISSING',
      `the root URL ${shownUrl(config.rootUrl)} is configured but ${missing} (or DOCUSIGN_ACCESS_TOKEN, or the JWT grant) is not`,
    );
  }
  const root = config.rootUrl.replace(/\/+$/, '');
  const target: ResolvedTarget = {
    rootUrl: /\/restapi$/.test(root) ? `${root}/${version}` : root,
    sandbox: false,
    auth,
    warnings,
    close: async () => {},
  };
  if (c.distributorCode && c.distributorPassword)
    target.distributor = { code: c.distributorCode, password: c.distributorPassword };
  else if (seedDistributor) target.distributor = seedDistributor;
  const integratorKey = auth.kind === 'legacy' ? auth.integratorKey : c.integratorKey;
  if (integratorKey) target.integratorKey = integratorKey;
  return target;
}

/** The JWT grant: one token request and one userinfo, here, before anything else is sent. */
async function resolveJwtTarget(
  config: SignrunConfig,
  settings: JwtGrantSettings,
  version: ApiVersion,
  sessionOptions: ConstructorParameters<typeof OAuthSession>[1],
): Promise<ResolvedTarget> {
  const c = config.credentials;
  const session = new OAuthSession(settings, sessionOptions);
  const account = await session.account();
  const discovered = apiRootOf(account.baseUri, version);
  let rootUrl = discovered;
  if (config.rootUrl) {
    const configured = config.rootUrl.replace(/\/+$/, '');
    if (new URL(configured).origin !== new URL(account.baseUri).origin) {
      throw new SignrunError(
        'SR_AUTH_WRONG_REGION',
        `DOCUSIGN_ROOT_URL is ${shownUrl(configured)}, but the account ${account.accountId} lives at ${account.baseUri} (userinfo): calls there would be refused`,
        { hint: `Unset DOCUSIGN_ROOT_URL (signrun then uses ${discovered}), or set it to ${discovered}.` },
      );
    }
    rootUrl = /\/restapi$/.test(configured) ? `${configured}/${version}` : configured;
  }
  const target: ResolvedTarget = {
    rootUrl,
    sandbox: false,
    auth: { kind: 'oauth', session },
    integratorKey: settings.integrationKey,
    account,
    warnings: [],
    close: async () => {},
  };
  if (c.distributorCode && c.distributorPassword)
    target.distributor = { code: c.distributorCode, password: c.distributorPassword };
  return target;
}

/** True for an address on this machine (127.0.0.0/8, localhost, ::1: the client's one definition). */
export function isLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
