import type { Secret } from '../jobs/model.js';
import type { ApiVersion } from '../client/api-version.js';

/**
 * signrun's own configuration, after merging the config file (cosmiconfig,
 * module name `signrun`) with the environment. Credentials come only from
 * here, never from job files.
 */
export interface SignrunConfig {
  /** Service root, e.g. https://demo.docusign.net/restapi/v2. Absent: start the sandbox in-process. */
  rootUrl?: string;
  /**
   * REST API version when the root URL does not name one (the JWT grant
   * finds the root with userinfo). Default v2.1; v2 for old setups.
   */
  apiVersion?: ApiVersion;
  credentials: Credentials;
  /** Default for `run --concurrency`. Default 8. */
  concurrency: number;
  /** Default for `run --out`. Default `out`. */
  outDir: string;
  /** Default for `run --signing-urls`: when embedded signers' addresses are made. Default `at-send`. */
  signingUrls?: SigningUrls;
  /** The file it was loaded from, if any. */
  configFile?: string;
}

/** When embedded signers' signing addresses are made: right after sending, or when the person arrives (`links serve`, `sign-url`). */
export type SigningUrls = 'at-send' | 'on-demand';

/** From DOCUSIGN_* environment variables or the config file. Secrets never printed. */
export interface Credentials {
  username?: string;
  password?: Secret;
  integratorKey?: string;
  accessToken?: Secret;
  distributorCode?: string;
  distributorPassword?: Secret;
  /** JWT grant: the user to act for, their API user id (GUID). */
  userId?: string;
  /** JWT grant: the RSA private key (PEM), read from privateKeyFile or given whole. */
  privateKey?: Secret;
  /** Where privateKey was read from (absolute), for messages. */
  privateKeyFile?: string;
  /** JWT grant: account-d.docusign.com, account.docusign.com, or a sandbox's http(s)://HOST:PORT. */
  oauthBase?: string;
  /** The account to work in; absent: the user's default account. */
  accountId?: string;
  /** DocuSign's Admin API base (DOCUSIGN_ADMIN_BASE); absent: from the OAuth base (client/admin/admin-base.ts). */
  adminBase?: string;
}
