import type { SandboxDatabase } from './platform/db/open-database.js';
import { SignrunError } from '../errors/signrun-error.js';
import { openDatabase, isEmptyDatabase, databaseFile } from './platform/db/open-database.js';
import { createBlobStore, type BlobStore } from './platform/db/blob-store.js';
import {
  startWalCheckpointer,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from './platform/db/wal-checkpointer.js';
import { createPageCounts, type PageCounts } from './platform/pdf/page-counts.js';
import { createDocumentWork } from './esignature/document-work/document-work-pool.js';
import type { DocumentWork } from './esignature/document-work/document-work.js';
import { systemClock, type Clock } from './platform/clock.js';
import { accountsRepository, type AccountsRepository } from './esignature/accounts/repository.js';
import {
  envelopesRepository,
  type EnvelopesRepository,
  type EnvelopeRecord,
  type RecipientRecord,
} from './esignature/envelopes/repository.js';
import { templatesRepository, type TemplatesRepository } from './esignature/templates/repository.js';
import {
  permissionProfilesRepository,
  type PermissionProfilesRepository,
} from './esignature/permission-profiles/repository.js';
import { groupsRepository, type GroupsRepository } from './esignature/groups/repository.js';
import { bulkSendRepository, type BulkSendRepository } from './esignature/bulk-send/repository.js';
import { createBulkSendWorker, type BulkSendWorker } from './esignature/bulk-send/bulk-send-worker.js';
import { eventsRepository, type EventsRepository } from './esignature/envelopes/events-repository.js';
import {
  viewTokensRepository,
  type ViewTokensRepository,
  type ViewTokenResult,
} from './esignature/authentication/view-tokens.js';
import { createOutbox, type Outbox } from './platform/outbox.js';
import { brandedMessage } from './esignature/brands/branded-message.js';
import { conditionalRouting } from './esignature/envelopes/conditional-routing.js';
import { envelopeWorkflows } from './esignature/envelopes/workflow/envelope-workflow.js';
import { SandboxEvents } from './esignature/envelopes/events.js';
import { createLifecycle, type Lifecycle } from './esignature/envelopes/lifecycle.js';
import { createAuthenticator, type Authenticator } from './esignature/authentication/authenticate.js';
import { applySeed, seedBaseDir } from './seed/apply-seed.js';
import { oauthConsents } from './oauth/oauth-consents.js';
import { oauthRedirectUris } from './oauth/redirect-uris.js';
import { oauthSchemaSql } from './oauth/oauth-schema.js';
import { adminSchemaSql } from './admin/admin-schema.js';
import { defaultSeed } from './seed/default-seed.js';
import { loadSeedFile } from './seed/load-seed.js';
import { createHourlyLimit, type HourlyLimit } from './platform/limits/hourly-limit.js';
import { hourlyLimiter } from './platform/limits/hourly-limiter.js';
import type { ApiLimiter } from './platform/limits/api-limiter.js';
import type { PollingRule, SandboxOptions } from './contract.js';
import { HostAllowList } from './platform/limits/host-allow-list.js';
import { parsePublicUrl } from './platform/http/public-origin.js';

/** Settings the routes and plugins read. */
export interface SandboxConfig {
  /**
   * Origin of the addresses the service hands out (view URLs, activation
   * links), e.g. http://127.0.0.1:8080: `--public-url` when given, else set
   * by startSandbox once listening. Read it through publicOrigin()
   * (public-origin.ts), which covers the cases where it is unset; never
   * build an address from the request's Host header.
   */
  origin: string | undefined;
  /** The Host names requests may carry (limits/host-allow-list.ts): loopback, IP addresses, --host, --public-url. */
  hosts: HostAllowList;
  /** Lifetime of signing-view tokens, seconds. Default 300. */
  viewTokenTtlSeconds: number;
  /** Fixed delay added to every API response, ms. Default 0. */
  latencyMs: number;
  /** Largest request body accepted, bytes. Default 34 MiB (DocuSign's envelope limit is 25 MB per document). */
  bodyLimitBytes: number;
  /** The data folder (`--data`); undefined for an in-memory sandbox. The sealing CA lives in `<dataDir>/ca/`. */
  dataDir: string | undefined;
  /** Hosts besides loopback that Connect may POST to. Default none. */
  connectAllowedHosts: string[];
  /**
   * Whether `POST /sandbox/integrations/{key}/rsa-keys` and `…/secrets` answer
   * (always behind authentication): yes, unless `--public-url` is set without
   * `--allow-key-generation`.
   */
  keyRegistration: boolean;
  /** Delay before the first Connect retry, ms. Default 1000. */
  connectRetryBaseMs: number;
  /** The polling rule the sandbox asks its clients to keep (`GET /sandbox/health`). Default `none`. */
  pollingRule: PollingRule;
}

/**
 * Everything the sandbox's routes and plugins share, decorated on the fastify
 * app as `app.sandbox`. The signing page and Connect use: `envelopes`,
 * `consumeViewToken`, `lifecycle`, `events`, `outbox`, `blobs`, `clock`,
 * `config`, and may set `notificationLinks`; the Admin API sets
 * `closableByOrganizationAdmin`.
 */
export interface SandboxServices {
  db: SandboxDatabase;
  /** Document bytes by sha256. */
  blobs: BlobStore;
  /** Exact page counts by sha256, remembered for documents whose count creation left unknown. */
  pageCounts: PageCounts;
  /**
   * Work on bytes a client sent — conversion, a PDF's text for anchors, page
   * counts — on a pool of worker threads with a deadline and a memory limit
   * (document-work/document-work-pool.ts), never on the event loop.
   */
  documentWork: DocumentWork;
  clock: Clock;
  /** Waits `ms` (the `--latency` of every API answer); injectable through ServicesOverrides. */
  delay: (ms: number) => Promise<void>;
  config: SandboxConfig;
  accounts: AccountsRepository;
  envelopes: EnvelopesRepository;
  templates: TemplatesRepository;
  /** An account's permission profiles (the built-in three added when first read). */
  permissionProfiles: PermissionProfilesRepository;
  /** An account's groups and their members. */
  groups: GroupsRepository;
  /** Bulk send lists, batches and their copies. */
  bulkSend: BulkSendRepository;
  /** Makes sent batches' copies in the background (bulk-send/bulk-send-worker.ts). */
  bulkSendWorker: BulkSendWorker;
  /** The events table (audit trail for the certificate). */
  eventsTable: EventsRepository;
  viewTokens: ViewTokensRepository;
  outbox: Outbox;
  /** In-process emitter of envelope/recipient events, after commit: `events.on('event', (e) => …)`. */
  events: SandboxEvents;
  lifecycle: Lifecycle;
  /**
   * Sends on the envelopes whose workflow waited for a time that has come
   * (envelope-workflow.ts). Called before every request and on a one-second
   * tick, so a moved clock is heard at the next request.
   */
  resumeDueWorkflows(): void;
  auth: Authenticator;
  /** The hourly API call limit (a no-op when `hourlyLimit` is not set). */
  hourlyLimit: HourlyLimit;
  /** Limits applied to every authenticated API call, in order (hourly first). A burst limit or fault injection is added here. */
  limiters: ApiLimiter[];
  /**
   * Single use and checked against the TTL: the first call with a live token
   * returns what it opens and burns it; later calls answer `used`, late ones
   * `expired`, forged ones `unknown`.
   */
  consumeViewToken(token: string): ViewTokenResult;
  /** Whether an account exists and is not deleted: a deleted account's signing links and sessions open nothing. */
  accountIsLive(accountId: string): boolean;
  /**
   * Links put in a remote (non-embedded) recipient's notification in the
   * outbox. Default: none. The signing plugin may replace it to add a
   * signing link.
   */
  notificationLinks: (envelope: EnvelopeRecord, recipient: RecipientRecord) => string[];
  /**
   * Whether the person with this email may close the account as an
   * administrator of the organisation that made it (DocuSign's Admin API:
   * an account created or cloned through the organisation is administered
   * by its administrators). Default: never. The Admin API replaces it.
   */
  closableByOrganizationAdmin: (accountId: string, email: string) => boolean;
  /** What start-up did about the seed: applied the built-in one, the --seed file, or nothing (the data folder already had accounts). */
  seed: 'built-in' | 'file' | 'kept-existing-data';
  /**
   * The data folder's WAL checkpointer on its own thread (platform/db/wal-checkpointer.ts); undefined in
   * memory, and where no compiled thread exists (the main connection then checkpoints itself).
   */
  walCheckpointer: WalCheckpointer | undefined;
  /** Closes the database. */
  close(): void;
}

/** Extra knobs for tests (not on the CLI). */
export interface ServicesOverrides {
  clock?: Clock;
  /** How `--latency` waits; default a timer. A test holds it to see an answer wait, without waiting itself. */
  delay?: (ms: number) => Promise<void>;
  /** Where document work is done; default the pool of `serve` (on this thread where no compiled worker exists). */
  documentWork?: DocumentWork;
  /** The WAL checkpointer's thread of a data folder (its compiled script, interval, limit); default `serve`'s. */
  walCheckpointer?: WalCheckpointerOptions;
  /** The blob writer's compiled thread of a data folder (platform/db/blob-writer.ts); default `serve`'s. */
  blobWriterScript?: URL;
}

/** Opens the storage, applies the seed to a new database, and wires the services. */
export async function createServices(
  options: SandboxOptions,
  overrides: ServicesOverrides = {},
): Promise<SandboxServices> {
  const clock = overrides.clock ?? systemClock;
  // A bad --public-url is refused before anything is opened.
  const publicUrl = options.publicUrl !== undefined ? parsePublicUrl(options.publicUrl) : undefined;
  let db: SandboxDatabase;
  try {
    db = openDatabase(options.dataDir, [oauthSchemaSql, adminSchemaSql]);
  } catch (cause) {
    throw new SignrunError(
      'SR_SANDBOX_START',
      `cannot open the sandbox database in ${options.dataDir ?? 'memory'}: ${(cause as Error).message}`,
      { cause },
    );
  }
  let walCheckpointer: WalCheckpointer | undefined;
  try {
    walCheckpointer =
      options.dataDir === undefined
        ? undefined
        : startWalCheckpointer(db, databaseFile(options.dataDir), overrides.walCheckpointer);
    const blobs = createBlobStore(options.dataDir, { writerScript: overrides.blobWriterScript });
    const documentWork = overrides.documentWork ?? createDocumentWork({ warm: options.warmDocumentThread === true });
    const accounts = accountsRepository(db);
    const envelopes = envelopesRepository(db);
    const templates = templatesRepository(db);
    const bulkSend = bulkSendRepository(db);
    const eventsTable = eventsRepository(db);
    const viewTokens = viewTokensRepository(db);
    const outbox = createOutbox(db, clock, brandedMessage(db));
    const events = new SandboxEvents();
    const hourlyLimit = createHourlyLimit(options.hourlyLimit, clock, options.hourlyWindowSeconds);
    let seedState: SandboxServices['seed'] = 'kept-existing-data';
    if (isEmptyDatabase(db)) {
      seedState = options.seedFile ? 'file' : 'built-in';
      const seed = options.seedFile ? await loadSeedFile(options.seedFile) : defaultSeed;
      await applySeed(
        seed,
        { db, blobs, accounts, templates, consents: oauthConsents(db), redirectUris: oauthRedirectUris(db), clock },
        options.seedFile ? { baseDir: seedBaseDir(options.seedFile) } : {},
      );
    }
    const lifecycle = createLifecycle({
      db,
      envelopes,
      eventsTable,
      blobs,
      outbox,
      clock,
      emitter: events,
      // Read at each send, so a plugin that replaces services.notificationLinks is heard.
      notificationLinks: () => services.notificationLinks,
      resolvePlaceholder: (envelope, recipient, recipients) =>
        conditionalRouting(db).resolve(envelope, recipient, recipients),
      workflowGate: (envelope, routingOrder, firstSend) =>
        envelopeWorkflows(db).gate(envelope.id, routingOrder, firstSend, clock.now()),
    });
    const resumeDueWorkflows = () => {
      const workflows = envelopeWorkflows(db);
      const now = clock.now();
      for (const envelopeId of workflows.due(now)) {
        lifecycle.resume(envelopeId);
        workflows.settle(envelopeId, now);
      }
    };
    // Held envelopes go out on time even when nobody calls (a real clock); unref'd: it keeps nothing alive.
    const workflowTick = setInterval(() => {
      try {
        resumeDueWorkflows();
      } catch (error) {
        // A tick has nobody to answer: reported, and the next tick (or request) tries again.
        process.emitWarning(error instanceof Error ? error : String(error), { code: 'SIGNRUN_SANDBOX_WORKFLOW_TICK' });
      }
    }, 1000);
    workflowTick.unref();
    const bulkSendWorker = createBulkSendWorker({
      db,
      lifecycle,
      bulkSend,
      envelopes,
      templates,
      blobs,
      clock,
      documentWork,
    });
    const accountIsLive = (accountId: string) => {
      const account = accounts.account(accountId);
      return account !== undefined && account.status !== 'deleted';
    };
    const services: SandboxServices = {
      db,
      blobs,
      pageCounts: createPageCounts(undefined, (bytes) => documentWork.pageCount(bytes)),
      documentWork,
      clock,
      delay: overrides.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      config: {
        origin: publicUrl?.origin,
        hosts: new HostAllowList([options.host, publicUrl?.hostname]),
        viewTokenTtlSeconds: options.viewTokenTtlSeconds ?? 300,
        latencyMs: options.latencyMs ?? 0,
        bodyLimitBytes: options.bodyLimitBytes ?? 34 * 1024 * 1024,
        dataDir: options.dataDir,
        connectAllowedHosts: options.connectAllowedHosts ?? [],
        keyRegistration: options.allowKeyGeneration ?? publicUrl === undefined,
        connectRetryBaseMs: options.connectRetryBaseMs ?? 1000,
        pollingRule: options.pollingRule ?? 'none',
      },
      accounts,
      envelopes,
      templates,
      permissionProfiles: permissionProfilesRepository(db),
      groups: groupsRepository(db),
      bulkSend,
      bulkSendWorker,
      eventsTable,
      viewTokens,
      outbox,
      events,
      lifecycle,
      resumeDueWorkflows,
      auth: createAuthenticator(db, accounts, clock),
      hourlyLimit,
      limiters: [hourlyLimiter(hourlyLimit)],
      consumeViewToken: (token) => {
        const result = viewTokens.consume(token, clock.now());
        // A deleted account's links (outbox, earlier views) open nothing, as if never issued (issue 14).
        return result.ok && !accountIsLive(result.accountId) ? { ok: false, reason: 'unknown' } : result;
      },
      accountIsLive: (accountId) => accountIsLive(accountId),
      notificationLinks: () => [],
      closableByOrganizationAdmin: () => false,
      seed: seedState,
      walCheckpointer,
      close: () => {
        clearInterval(workflowTick);
        bulkSendWorker.close();
        walCheckpointer?.close();
        db.close();
        blobs.close();
        void documentWork.close();
      },
    };
    // Copies of batches a stopped sandbox left queued are made now (the data folder kept them).
    bulkSendWorker.kick();
    return services;
  } catch (error) {
    walCheckpointer?.close();
    db.close();
    throw error;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The sandbox's shared services: `createServices`'s result, decorated by app.ts. */
    sandbox: SandboxServices;
  }
}
