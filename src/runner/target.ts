import type { SignrunConfig } from '../config/types.js';
import type { Secret } from '../jobs/model.js';
import type { RunningSandbox, SandboxOptions } from '../sandbox/contract.js';
import type { Auth } from '../client/auth.js';
import { SignrunError } from '../errors/signrun-error.js';
import { makeSecret } from '../secret.js';

/** The service a command talks to and how it logs in. */
export interface ResolvedTarget {
  rootUrl: string;
  /** True when the sandbox was started in-process for this command. */
  sandbox: boolean;
  auth: Auth;
  distributor?: { code: string; password: Secret };
  integratorKey?: string;
  /** Stops the in-process sandbox, if one was started. */
  close(): Promise<void>;
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
 * From the configuration: the configured service with its credentials
 * (bearer token first, else the legacy username/password/integrator key;
 * for a loopback root URL with none configured, a local `signrun serve`, the
 * default seed's), or — with no root URL — a sandbox started in-process on a
 * free loopback port, logged in with its seed's credentials.
 */
export async function resolveTarget(
  config: SignrunConfig,
  startSandbox: (options: SandboxOptions) => Promise<RunningSandbox>,
): Promise<ResolvedTarget> {
  const c = config.credentials;
  if (!config.rootUrl) {
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, quiet: true });
    const s = sandboxSeedCredentials;
    return {
      rootUrl: sandbox.rootUrl,
      sandbox: true,
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
  if (c.accessToken) auth = { kind: 'bearer', accessToken: c.accessToken };
  else if (c.username && c.password && c.integratorKey)
    auth = { kind: 'legacy', username: c.username, password: c.password, integratorKey: c.integratorKey };
  else if (!c.username && !c.password && isLoopback(config.rootUrl)) {
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
      `the root URL ${config.rootUrl} is configured but ${missing} (or DOCUSIGN_ACCESS_TOKEN) is not`,
    );
  }
  const target: ResolvedTarget = {
    rootUrl: config.rootUrl.replace(/\/+$/, ''),
    sandbox: false,
    auth,
    close: async () => {},
  };
  if (c.distributorCode && c.distributorPassword)
    target.distributor = { code: c.distributorCode, password: c.distributorPassword };
  else if (seedDistributor) target.distributor = seedDistributor;
  const integratorKey = auth.kind === 'legacy' ? auth.integratorKey : c.integratorKey;
  if (integratorKey) target.integratorKey = integratorKey;
  return target;
}

/** True for an address on this machine (127.0.0.1, localhost, ::1). */
export function isLoopback(url: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}
