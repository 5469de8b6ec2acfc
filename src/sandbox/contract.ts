/**
 * How the rest of signrun starts the sandbox in-process (`run` with no root
 * URL, tests, benchmarks). `src/sandbox/index.ts` exports `startSandbox`
 * with this shape.
 */
export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** HTTPS with a certificate from the sandbox's own CA (kept in `<dataDir>/tls/`; `GET /sandbox/ca.pem`). Default: plain HTTP. */
  tls?: boolean;
  /**
   * The address clients and people reach the sandbox at, when it is not the
   * one it listens on (`serve --public-url`; a name on the network, a
   * reverse proxy): every address it hands out starts with it, and its host
   * name joins the Host allow-list (docs/sandbox.md, "On a network").
   */
  publicUrl?: string;
  /**
   * Whether the sandbox makes and registers integration keys' key pairs and
   * secrets (`POST /sandbox/integrations/{key}/rsa-keys`, `…/secrets`; always
   * for an authenticated user of the seed's accounts). Default: yes, except
   * with `publicUrl` (`serve --allow-key-generation` turns it back on).
   */
  allowKeyGeneration?: boolean;
  /** Folder for SQLite and document files; absent: in memory (lost on close). */
  dataDir?: string;
  /** Path of a YAML seed replacing the built-in default seed. */
  seedFile?: string;
  /** Fixed delay added to every API response, in ms (`serve --latency`). */
  latencyMs?: number;
  /** Hourly API call limit per account; absent: unlimited. */
  hourlyLimit?: number;
  /**
   * Length of the limit's window, seconds. DocuSign's is the clock hour
   * (3600, the default); a shorter one lets a test live through several
   * "hours" of calls in seconds (`serve --hourly-window`).
   */
  hourlyWindowSeconds?: number;
  /** Lifetime of signing-view tokens, seconds. Default 300. */
  viewTokenTtlSeconds?: number;
  /** API calls per 30 s per account before the burst limit answers (DocuSign: 500; 200 in demo). Absent: unlimited. */
  burstLimit?: number;
  /** Fault injection spec (`serve --faults`), e.g. "429=0.02,500=0.02,reset-after=0.02". Absent: no faults. */
  faults?: string;
  /** Seed for the fault injection's random choices, so a run is reproducible. Default: random. */
  faultSeed?: number;
  /** Don't log requests (in-process use by `run`). */
  quiet?: boolean;
  /** Receives one line per request (method, route pattern — never a token —, status, time). Default: no log. */
  log?: (line: string) => void;
  /** Largest request body accepted, bytes; larger ones get 413 REQUEST_ENTITY_TOO_LARGE. Default 34 MiB. */
  bodyLimitBytes?: number;
  /** Hosts besides loopback that Connect may POST event notifications to (`*.example.com` for sub-domains). Default none. */
  connectAllowedHosts?: string[];
  /** Delay before the first Connect retry, ms; doubles after each failure, capped at 5 min. Default 1000. */
  connectRetryBaseMs?: number;
  /**
   * How long the Admin API's asynchronous work takes (account creation and
   * cloning, settings and user imports, exports), ms of the sandbox's clock.
   * Default 1000. Tests set it under signrun's first poll (250 ms): the work
   * is still Pending at the first look and done at the second, without
   * waiting out a second of real time for each.
   */
  workDelayMs?: number;
  /**
   * DocuSign's polling rule (one status listing per 15 minutes), as the
   * sandbox tells its clients at `GET /sandbox/health` (`serve --polling-rule`):
   * `none` (default) lets `sync` list at every call, so "sign, then sync"
   * works at once; `docusign` asks signrun to keep DocuSign's interval, to
   * try a cron schedule as it will behave against DocuSign.
   */
  pollingRule?: PollingRule;
  /**
   * Starts a thread of the document pool with the sandbox, so that its first
   * document does not wait for pdf.js, pdf-lib and mammoth to compile
   * (`serve`, a long-lived server). Default false: a sandbox inside another
   * process (`run`'s, a test's) starts its first thread with its first
   * document, and one that never gets a document never pays for it (~1 s of
   * CPU a start, issue 38).
   */
  warmDocumentThread?: boolean;
}

/** Whether clients of the sandbox keep DocuSign's polling rule (see {@link SandboxOptions.pollingRule}). */
export type PollingRule = 'none' | 'docusign';

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:43123 */
  origin: string;
  /** e.g. http://127.0.0.1:43123/restapi/v2 */
  rootUrl: string;
  /** Finish in-flight requests, close the database. */
  close(): Promise<void>;
  /** The fastify app (its `sandbox` decoration holds the services: database, lifecycle, outbox…). */
  app: import('fastify').FastifyInstance;
}
