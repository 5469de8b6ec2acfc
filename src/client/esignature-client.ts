import type { Auth } from './auth.js';
import type { Secret } from '../secret.js';
import { SignrunError } from '../errors/signrun-error.js';
import type { ApiRequest, ApiResponse, ClientEvent, Send } from './api-request.js';
import { ClientBadResponseError, ClientNetworkError } from './client-errors.js';
import { createFetchOnce } from './fetch-once.js';
import { checkServerAddress } from './credential-destinations.js';
import type { RateLimitInfo } from './rate-limit.js';
import { AttemptBudget, defaultRetryPolicy, retryDelay, type RetryPolicy } from './retry-policy.js';
import { realTiming, type Timing } from './timing.js';
import { withRetry } from './with-retry.js';
import { withThrottle, type RateLimitState } from './with-throttle.js';
import { withAccessToken } from './with-access-token.js';
import { withRequestSlots, type RequestSlots } from './with-request-slots.js';
import { apiRootOf, inVersion, versionOfRoot, type ApiVersion } from './api-version.js';
import { pathOf } from './redact.js';
import { checkedDownload, downloadCap, downloadTooLarge } from './download-check.js';
import type { CallOptions, DownloadOptions, DownloadSink, WrittenFile } from './call-options.js';
import type { LoginAccount } from './wire-types.js';
import * as accounts from './esignature/accounts.js';
import * as envelopes from './esignature/envelopes.js';
import * as documents from './esignature/documents.js';
import * as templates from './esignature/templates.js';
import * as bulkSend from './esignature/bulk-send.js';
import { answerJson, type AccountScope } from './esignature/account-scope.js';

export type { CallOptions, DownloadOptions, DownloadSink, WrittenFile } from './call-options.js';
export type { EnvelopeListQuery } from './esignature/envelopes.js';
export { newAccountDefinitionV21 } from './esignature/accounts.js';
export { pageCountOf } from './esignature/documents.js';

/** Options of {@link EsignatureClient.create}. */
export interface EsignatureClientOptions {
  /**
   * Service root ending in /restapi/v2.1 or /restapi/v2, e.g.
   * https://demo.docusign.net/restapi/v2.1: its version is the one spoken.
   */
  rootUrl: string;
  auth: Auth;
  /** Default {@link defaultRetryPolicy}. */
  retryPolicy?: RetryPolicy;
  /** Default the real clock and timers. */
  timing?: Timing;
  /**
   * Keep-alive connections per origin, which is also the most requests in
   * flight at once (one per connection; more wait for a free one, by
   * priority). Default 32.
   */
  maxSockets?: number;
  /** Every wire call and every retry. */
  onEvent?: (event: ClientEvent) => void;
}

interface Shared {
  send: Send;
  close(): void;
  reorder: RequestSlots['reorder'];
  rate: RateLimitState;
  timing: Timing;
  policy: RetryPolicy;
  onEvent: ((event: ClientEvent) => void) | undefined;
}

/**
 * A typed client of the eSignature REST API v2 (service-api.md section 4;
 * paths and wire names from the Swagger). One connection pool shared by all
 * calls; pipeline throttle → retry → fetch once. Knows nothing of job files.
 */
export class EsignatureClient {
  readonly rootUrl: string;
  readonly #auth: Auth;
  readonly #shared: Shared;

  private constructor(rootUrl: string, auth: Auth, shared: Shared) {
    this.rootUrl = rootUrl.replace(/\/+$/, '');
    this.#auth = auth;
    this.#shared = shared;
  }

  static create(options: EsignatureClientOptions): EsignatureClient {
    const timing = options.timing ?? realTiming;
    const policy = options.retryPolicy ?? defaultRetryPolicy;
    const rate: RateLimitState = {};
    const slots = options.maxSockets ?? 32;
    const once = createFetchOnce({
      timing,
      maxSockets: slots,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      onRateLimit: (info) => {
        rate.last = info;
      },
    });
    // throttle → retry → access token (JWT grant: current token, renewed once
    // on a 401) → a free connection, by priority → fetch once.
    const requestSlots = withRequestSlots(once.send, slots);
    const send = withThrottle(
      withRetry(withAccessToken(requestSlots.send), policy, timing, options.onEvent),
      rate,
      timing,
    );
    return new EsignatureClient(options.rootUrl, options.auth, {
      send,
      close: () => once.close(),
      reorder: requestSlots.reorder,
      rate,
      timing,
      policy,
      onEvent: options.onEvent,
    });
  }

  /** The same connection pool and layers, other credentials (e.g. a subsidiary account's user). */
  withAuth(auth: Auth): EsignatureClient {
    return new EsignatureClient(this.rootUrl, auth, this.#shared);
  }

  /** The API version of the root URL (v2 when it names none, as before v2.1 existed here). */
  get apiVersion(): ApiVersion {
    return versionOfRoot(this.rootUrl) ?? 'v2';
  }

  /**
   * The configured way of logging in, acting as another user: the initial
   * user of a subsidiary account, to delete it. JWT grant: the same
   * integration key and key pair with that user as `sub` (that user, or
   * their organisation, must have consented), in that account. Legacy
   * header: that user's id and password with the same integrator key. A
   * bare access token cannot act for anyone else: then the legacy header
   * with `integratorKey`, as old setups did, or an error saying what to set.
   */
  asUser(user: { userId: string; accountId: string; password?: Secret }, integratorKey?: string): EsignatureClient {
    const auth = this.#auth;
    if (auth.kind === 'oauth') {
      return this.withAuth({ kind: 'oauth', session: auth.session.forUser(user.userId, user.accountId) });
    }
    const key = auth.kind === 'legacy' ? auth.integratorKey : integratorKey;
    if (!user.password || !key) {
      throw new SignrunError(
        'SR_CREDENTIALS_MISSING',
        `acting as user ${user.userId} of account ${user.accountId} needs ${!key ? 'an integrator key (DOCUSIGN_INTEGRATOR_KEY) and ' : ''}that user's password (initialUser.password) with this login; the JWT grant needs neither`,
        { hint: 'Set up the JWT grant (docs/docusign.md), or give initialUser.password in the job file.' },
      );
    }
    return this.withAuth({ kind: 'legacy', username: user.userId, password: user.password, integratorKey: key });
  }

  /** What the service said last about its rate limits. */
  get rateLimit(): RateLimitInfo | undefined {
    return this.#shared.rate.last;
  }

  /**
   * Gives every request waiting for a free connection (when all are taken)
   * the priority `map` makes of its own: a caller whose order of work
   * changes (a run's last stretch) reorders what already waits.
   */
  reorderWaiting(map: (priority: number) => number): void {
    this.#shared.reorder(map);
  }

  /** Closes the connection pool. */
  close(): void {
    this.#shared.close();
  }

  /** {@link accounts.loginInformation}: GET /v2/login_information (4.1), on v2 whatever the root's version. */
  loginInformation = (...a: After<typeof accounts.loginInformation, EsignatureClient>) =>
    accounts.loginInformation(this, ...a);

  /**
   * Logs in and returns the client of the account to work in. With the JWT
   * grant, the session's account (userinfo, asked once per run: the
   * configured account id, else the user's default), at its base_uri;
   * otherwise the default account (or the first one) of the login
   * information, whose baseUrl gives the {account} address (service-api.md 4.1).
   */
  async login(options: CallOptions = {}): Promise<AccountClient> {
    if (this.#auth.kind === 'oauth') {
      const found = await this.#auth.session.account();
      return new AccountClient(this, {
        accountId: found.accountId,
        baseUrl: `${apiRootOf(found.baseUri, this.apiVersion)}/accounts/${enc(found.accountId)}`,
        userId: found.userId,
        ...(found.accountName ? { name: found.accountName } : {}),
      });
    }
    const info = await this.loginInformation(options);
    const accounts = info.loginAccounts ?? [];
    const chosen = accounts.find((a) => a.isDefault === 'true') ?? accounts[0];
    if (!chosen?.accountId) {
      throw new ClientBadResponseError(
        {
          method: 'GET',
          path: pathOf(`${inVersion(this.rootUrl, 'v2')}/login_information`),
          operation: 'loginInformation',
        },
        'no loginAccounts in the answer',
      );
    }
    // The legacy header (the password) goes to baseUrl on every call: the same rule as userinfo's base_uri.
    if (chosen.baseUrl)
      checkServerAddress(chosen.baseUrl, { configured: this.rootUrl, namedBy: "login_information's baseUrl" });
    const version = this.apiVersion;
    return new AccountClient(
      this,
      chosen.baseUrl && version !== 'v2' ? { ...chosen, baseUrl: inVersion(chosen.baseUrl, version) } : chosen,
    );
  }

  /** {@link accounts.getAccount}: GET …/accounts/{accountId} (4.2). */
  getAccount = (...a: After<typeof accounts.getAccount, EsignatureClient>) => accounts.getAccount(this, ...a);
  /** {@link accounts.createAccount}: POST …/accounts (4.3). Not idempotent. */
  createAccount = (...a: After<typeof accounts.createAccount, EsignatureClient>) => accounts.createAccount(this, ...a);
  /** {@link accounts.deleteAccount}: DELETE …/accounts/{accountId} (4.4), as a user of that account. */
  deleteAccount = (...a: After<typeof accounts.deleteAccount, EsignatureClient>) => accounts.deleteAccount(this, ...a);

  /** One call through the pipeline with this client's credentials. */
  async request(request: Omit<ApiRequest, 'auth'>, options: CallOptions = {}): Promise<ApiResponse> {
    return this.#shared.send({
      ...request,
      auth: this.#auth,
      ...(options.tag === undefined ? {} : { tag: options.tag }),
      ...(options.priority === undefined ? {} : { priority: options.priority }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.attempts ? { attempts: options.attempts } : {}),
    });
  }

  /**
   * A download: GET `url` as a stream handed to `sink`. When the body breaks
   * off mid-way (a network error while streaming), the whole download is
   * repeated per the retry policy: a GET can be.
   */
  async download<T extends WrittenFile>(
    url: string,
    operation: string,
    sink: DownloadSink<T>,
    options: DownloadOptions = {},
  ): Promise<T> {
    const { policy, timing, onEvent } = this.#shared;
    const { expect = { kind: 'pdf' }, ...call } = options;
    // One budget for the download and its restarts: the retry layer's retries of each GET draw from it too.
    const attempts = call.attempts ?? new AttemptBudget(policy.limit);
    const what = `${operation} GET ${pathOf(url)}`;
    const cap = downloadCap(expect);
    for (;;) {
      const response = await this.request(
        { method: 'GET', url, operation, responseType: 'stream' },
        { ...call, attempts },
      );
      try {
        if (!response.stream) throw new Error('no body');
        // The one download path checks what it receives (issue 25): the kind
        // its first bytes say, and a size cap, announced by Content-Length or
        // not; a refused body leaves nothing on disk (the sink removes its temp file).
        const declared = Number(response.headers.get('content-length') ?? Number.NaN);
        if (declared > cap) throw downloadTooLarge(what, cap, expect.announcedBytes);
        return await sink(checkedDownload(response.stream, expect, what, cap));
      } catch (error) {
        // A body the sink left unread would hold its connection (and its slot) for good.
        response.stream?.destroy();
        attempts.failed(error);
        if (attempts.left === 0 || call.signal?.aborted || !isStreamBreak(error)) throw error;
        const delayMs = retryDelay(policy, attempts.used, undefined, timing.random);
        onEvent?.({
          type: 'retry',
          operation,
          method: 'GET',
          path: pathOf(url),
          retry: attempts.used,
          delayMs,
          reason: 'download broke off',
          ...(call.tag === undefined ? {} : { tag: call.tag }),
        });
        await timing.delay(delayMs, call.signal);
      }
    }
  }
}

function isStreamBreak(error: unknown): boolean {
  if (error instanceof ClientNetworkError) return true;
  // A refused body (not a document, too large) is an answer, not a break: never retried.
  if (error instanceof SignrunError) return false;
  const code = (error as { code?: string } | undefined)?.code;
  const type = (error as { type?: string } | undefined)?.type; // node-fetch FetchError type 'system' / 'aborted'
  return (
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'EPIPE' ||
    type === 'system' ||
    (error instanceof Error && /premature close|aborted/i.test(error.message))
  );
}

/** The parameters of an API group's call after its first one (the account or the client it runs in). */
type After<F, Scope> = F extends (scope: Scope, ...rest: infer R) => unknown ? R : never;
/** {@link After} for calls under an account. */
type Of<F> = After<F, AccountScope>;

/**
 * Calls scoped to one account ({account} of service-api.md, from the login
 * information's baseUrl). Each call is its API group's function
 * (esignature/envelopes.ts, documents.ts, templates.ts, bulk-send.ts; their
 * addresses from esignature/endpoints.ts, a table checked against DocuSign's
 * Swagger), given this account: a method here only names it, so a new call
 * is one function in its group and one line here.
 */
export class AccountClient implements AccountScope {
  readonly accountId: string;
  readonly baseUrl: string;
  /** The logged-in user, when the login information gave it. */
  readonly userId: string | undefined;
  readonly client: EsignatureClient;

  constructor(client: EsignatureClient, account: LoginAccount) {
    this.client = client;
    this.accountId = account.accountId;
    this.baseUrl = (account.baseUrl ?? `${client.rootUrl}/accounts/${enc(account.accountId)}`).replace(/\/+$/, '');
    this.userId = account.userId;
  }

  /**
   * A call of a path under this account whose answer must be a JSON object:
   * for the account's other API groups (account-people.ts, account-brands.ts),
   * with the same check as this class's own calls. Not idempotent for a POST
   * unless said.
   */
  async requestJson<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    operation: string,
    options: CallOptions,
    body?: unknown,
    idempotent = method !== 'POST',
  ): Promise<T> {
    const request = { method, url: `${this.baseUrl}${path}`, operation, idempotent };
    return answerJson<T>(this.client, body !== undefined ? { ...request, body } : request, options);
  }

  // Envelopes, their recipients and views (esignature/envelopes.ts)
  createEnvelope = (...a: Of<typeof envelopes.createEnvelope>) => envelopes.createEnvelope(this, ...a);
  getEnvelope = (...a: Of<typeof envelopes.getEnvelope>) => envelopes.getEnvelope(this, ...a);
  listEnvelopeStatusChanges = (...a: Of<typeof envelopes.listEnvelopeStatusChanges>) =>
    envelopes.listEnvelopeStatusChanges(this, ...a);
  sendDraft = (...a: Of<typeof envelopes.sendDraft>) => envelopes.sendDraft(this, ...a);
  deleteDrafts = (...a: Of<typeof envelopes.deleteDrafts>) => envelopes.deleteDrafts(this, ...a);
  addTextCustomFields = (...a: Of<typeof envelopes.addTextCustomFields>) => envelopes.addTextCustomFields(this, ...a);
  voidEnvelope = (...a: Of<typeof envelopes.voidEnvelope>) => envelopes.voidEnvelope(this, ...a);
  resendToRecipients = (...a: Of<typeof envelopes.resendToRecipients>) => envelopes.resendToRecipients(this, ...a);
  listRecipients = (...a: Of<typeof envelopes.listRecipients>) => envelopes.listRecipients(this, ...a);
  createRecipientView = (...a: Of<typeof envelopes.createRecipientView>) => envelopes.createRecipientView(this, ...a);

  // Envelope documents (esignature/documents.ts); downloads keep their sink's type
  listDocuments = (...a: Of<typeof documents.listDocuments>) => documents.listDocuments(this, ...a);
  downloadDocument<T extends WrittenFile>(
    envelopeId: string,
    documentId: string,
    sink: DownloadSink<T>,
    options?: CallOptions & { announcedBytes?: number },
  ): Promise<T> {
    return documents.downloadDocument(this, envelopeId, documentId, sink, options);
  }
  downloadCertificate<T extends WrittenFile>(envelopeId: string, sink: DownloadSink<T>, options?: CallOptions) {
    return documents.downloadCertificate(this, envelopeId, sink, options);
  }
  downloadArchive = (...a: Of<typeof documents.downloadArchive>) => documents.downloadArchive(this, ...a);
  downloadCombined<T extends WrittenFile>(envelopeId: string, sink: DownloadSink<T>, options?: CallOptions) {
    return documents.downloadCombined(this, envelopeId, sink, options);
  }

  // Templates (esignature/templates.ts)
  createTemplate = (...a: Of<typeof templates.createTemplate>) => templates.createTemplate(this, ...a);
  updateTemplate = (...a: Of<typeof templates.updateTemplate>) => templates.updateTemplate(this, ...a);
  listTemplates = (...a: Of<typeof templates.listTemplates>) => templates.listTemplates(this, ...a);
  deleteTemplates = (...a: Of<typeof templates.deleteTemplates>) => templates.deleteTemplates(this, ...a);
  downloadTemplateDocument<T extends WrittenFile>(
    templateId: string,
    documentId: string,
    sink: DownloadSink<T>,
    options?: CallOptions,
  ): Promise<T> {
    return templates.downloadTemplateDocument(this, templateId, documentId, sink, options);
  }
  getTemplate = (...a: Of<typeof templates.getTemplate>) => templates.getTemplate(this, ...a);

  // Bulk Send, v2.1 only (esignature/bulk-send.ts)
  createBulkSendList = (...a: Of<typeof bulkSend.createBulkSendList>) => bulkSend.createBulkSendList(this, ...a);
  sendBulkSendList = (...a: Of<typeof bulkSend.sendBulkSendList>) => bulkSend.sendBulkSendList(this, ...a);
  getBulkSendBatch = (...a: Of<typeof bulkSend.getBulkSendBatch>) => bulkSend.getBulkSendBatch(this, ...a);
  listBulkSendBatches = (...a: Of<typeof bulkSend.listBulkSendBatches>) => bulkSend.listBulkSendBatches(this, ...a);
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
