import type { Auth } from '../../client/auth.js';
import type { EsignatureClient } from '../../client/esignature-client.js';
import { AdminClient, adminClientOf } from '../../client/admin/admin-client.js';
import { adminJwtScopes } from '../../client/admin/admin-scopes.js';
import { registerSandboxKey } from '../../client/admin/sandbox-key.js';
import { jwtScopes } from '../../client/oauth/jwt-assertion.js';
import { parseOAuthBase } from '../../client/oauth/oauth-base.js';
import { OAuthSession } from '../../client/oauth/oauth-session.js';
import { isLoopbackHost } from '../../client/credential-destinations.js';
import { SignrunError } from '../../errors/signrun-error.js';

/** What a run or a plan reaches an organisation's Admin API with. */
export interface OrganizationAccess {
  /** The Admin API client of this organisation: one per organisation, made on first use. */
  admin(organizationId: string): Promise<AdminClient>;
  /** API calls made so far to set up the Admin API's credentials (the sandbox's key registration, with the legacy header): counted in `plan`'s estimate. */
  readonly loginCalls: number;
}

/** What the Admin API's credentials are made from. */
export interface AdminAccessSources {
  /** The run's eSignature client (its pipeline carries the admin calls). */
  client: EsignatureClient;
  auth: Auth;
  /** The Admin API's base (client/admin/admin-base.ts). */
  base: string;
  /** The logged-in user (the legacy header: the sandbox's JWT grant acts for them). */
  userId: string | undefined;
  integratorKey: string | undefined;
}

/**
 * The organisations' Admin API clients of one command. The JWT grant: the
 * same user's token with the admin scopes. The legacy header (only the
 * sandbox takes it; its Admin API takes OAuth tokens only): a key pair
 * registered with the sandbox and the JWT grant for the same user, when the
 * Admin API is on this machine — never elsewhere, so a password never
 * becomes a token for a server it was not meant for. Each client is bound to
 * its organisation's paths: an organisation's token is never sent to
 * another's accounts.
 */
export function organizationAccess(sources: AdminAccessSources): OrganizationAccess {
  let auth: Promise<Auth> | undefined;
  const clients = new Map<string, Promise<AdminClient>>();
  let loginCalls = 0;
  const adminAuth = async (): Promise<Auth> => {
    if (sources.auth.kind !== 'legacy') return sources.auth;
    const origin = new URL(sources.base).origin;
    const base = parseOAuthBase(origin);
    if (!isLoopbackHost(new URL(origin).hostname) || !base || !sources.userId || !sources.integratorKey)
      throw new SignrunError(
        'SR_CREDENTIALS_MISSING',
        `DocuSign's Admin API (${origin}/management) takes OAuth tokens only: the legacy header cannot reach it`,
        {
          hint: 'Set up the JWT grant (docs/docusign.md) and consent to the admin scopes (docs/job-files.md, organisations).',
        },
      );
    loginCalls += 1;
    const privateKey = await registerSandboxKey(sources.client, origin, sources.integratorKey, { tag: 'admin-login' });
    const session = new OAuthSession({
      integrationKey: sources.integratorKey,
      userId: sources.userId,
      privateKey,
      base,
      scope: jwtScopes,
    });
    return { kind: 'oauth', session };
  };
  return {
    get loginCalls() {
      return loginCalls;
    },
    admin(organizationId) {
      let made = clients.get(organizationId);
      if (!made) {
        auth ??= adminAuth();
        made = auth.then((a) => adminClientOf(sources.client, a, sources.base, organizationId));
        clients.set(organizationId, made);
      }
      return made;
    },
  };
}

export { adminJwtScopes };
