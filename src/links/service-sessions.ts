import type { SignrunConfig } from '../config/types.js';
import { EsignatureClient, type AccountClient } from '../client/esignature-client.js';
import { isLoopback, resolveTarget } from '../runner/target.js';
import { SignrunError } from '../errors/signrun-error.js';

/**
 * The service a root URL names, without its API version: `run` records the
 * root it spoke to (`…/restapi/v2.1` when DOCUSIGN_ROOT_URL is DocuSign's
 * `…/restapi`), and v2 and v2.1 are the same service, with the same login.
 */
function serviceOf(rootUrl: string): string {
  return rootUrl.replace(/\/restapi\/v2(?:\.1)?$/, '/restapi');
}

/**
 * Logged-in clients for the links server, one per service. Credentials go
 * only to the configured service (DOCUSIGN_ROOT_URL): an envelope recorded
 * on another root URL is refused, so a tampered envelope.json cannot send
 * them elsewhere. With no root URL configured, an envelope made on a
 * `signrun serve` of this machine (a loopback root URL) is served with that
 * sandbox's seed credentials, as `sign-url` does.
 */
export class ServiceSessions {
  readonly #config: SignrunConfig;
  readonly #sessions = new Map<string, { client: EsignatureClient; account: Promise<AccountClient> }>();

  constructor(config: SignrunConfig) {
    this.#config = config;
  }

  /** The account client for an envelope created on `rootUrl`; logs in once, again after a failed login. */
  async accountFor(rootUrl: string): Promise<AccountClient> {
    const wanted = rootUrl.replace(/\/+$/, '');
    const configured = this.#config.rootUrl?.replace(/\/+$/, '');
    if (configured !== undefined ? serviceOf(configured) !== serviceOf(wanted) : !isLoopback(wanted))
      throw new SignrunError(
        'SR_LINKS_OTHER_SERVICE',
        `the envelope was created on ${wanted}, but the configured service is ${configured ?? '(none)'}: credentials go only to the configured service`,
      );
    let session = this.#sessions.get(wanted);
    if (!session) {
      const target = await resolveTarget({ ...this.#config, rootUrl: wanted }, () => {
        throw new Error('unreachable: a root URL is set');
      });
      const client = EsignatureClient.create({ rootUrl: target.rootUrl, auth: target.auth });
      session = { client, account: client.login() };
      this.#sessions.set(wanted, session);
    }
    try {
      return await session.account;
    } catch (error) {
      // A failed login is not kept: the next opening tries again.
      this.#sessions.delete(wanted);
      session.client.close();
      throw error;
    }
  }

  close(): void {
    for (const s of this.#sessions.values()) s.client.close();
    this.#sessions.clear();
  }
}
