import type { Secret } from '../jobs/model.js';

/**
 * signrun's own configuration, after merging the config file (cosmiconfig,
 * module name `signrun`) with the environment. Credentials come only from
 * here, never from job files.
 */
export interface SignrunConfig {
  /** Service root, e.g. https://demo.docusign.net/restapi/v2. Absent: start the sandbox in-process. */
  rootUrl?: string;
  credentials: Credentials;
  /** Default for `run --concurrency`. Default 8. */
  concurrency: number;
  /** Default for `run --out`. Default `out`. */
  outDir: string;
  /** The file it was loaded from, if any. */
  configFile?: string;
}

/** From DOCUSIGN_* environment variables or the config file. Secrets never printed. */
export interface Credentials {
  username?: string;
  password?: Secret;
  integratorKey?: string;
  accessToken?: Secret;
  distributorCode?: string;
  distributorPassword?: Secret;
}
