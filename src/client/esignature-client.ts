import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
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
import { withRequestSlots } from './with-request-slots.js';
import { apiRootOf, inVersion, versionOfRoot, type ApiVersion } from './api-version.js';
import { pathOf } from './redact.js';
import { checkedDownload, downloadCap, downloadTooLarge, type DownloadExpectation } from './download-check.js';
import { readArchive, type ArchiveEntry } from './archive-entries.js';
import type {
  EnvelopeDefinition,
  EnvelopeDocumentsResult,
  EnvelopeRecipients,
  EnvelopeSummary,
  Envelope,
  EnvelopesInformation,
  EnvelopeTemplate,
  EnvelopeTemplateResults,
  TemplateDefinition,
} from '../envelope/wire.js';
import { recipientsObject } from '../envelope/wire.js';
import type { BulkSendBatchStatus, BulkSendBatchSummaries, BulkSendResponse, BulkSendingList } from './wire-types.js';
import type {
  AccountInformation,
  LoginAccount,
  LoginInformation,
  NewAccountDefinition,
  NewAccountSummary,
  RecipientViewRequest,
  ViewUrl,
} from './wire-types.js';

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

/** Per-call options. */
export interface CallOptions {
  /** Copied into events (the runner passes `<job>/<key>`). */
  tag?: string;
  /** When every connection is busy, higher goes out first (see {@link ApiRequest.priority}). Default 0. */
  priority?: number;
  signal?: AbortSignal;
  /**
   * One budget for several calls of one operation (see {@link AttemptBudget}):
   * their requests together stay within its limit. Default: each call has the
   * retry policy's limit.
   */
  attempts?: AttemptBudget;
}

/** Options of a download: a call's, and what the body must be. */
export interface DownloadOptions extends CallOptions {
  /** Default `{ kind: 'pdf' }` with no announced size (the cap is then download-check.ts's maximum). */
  expect?: DownloadExpectation;
}

/** Size and sha256 of a file written from a download. */
export interface WrittenFile {
  size: number;
  sha256: string;
}

/** Receives a download body and writes it somewhere; called again when a download is retried. */
export type DownloadSink<T extends WrittenFile> = (body: Readable) => Promise<T>;

interface Shared {
  send: Send;
  close(): void;
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
    const send = withThrottle(
      withRetry(withAccessToken(withRequestSlots(once.send, slots)), policy, timing, options.onEvent),
      rate,
      timing,
    );
    return new EsignatureClient(options.rootUrl, options.auth, {
      send,
      close: () => once.close(),
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

  /** Closes the connection pool. */
  close(): void {
    this.#shared.close();
  }

  /**
   * GET /v2/login_information (service-api.md 4.1). v2.1 has no such call: a
   * v2.1 client asks v2's, on the same server.
   */
  async loginInformation(options: CallOptions = {}): Promise<LoginInformation> {
    return this.#json<LoginInformation>(
      { method: 'GET', url: `${inVersion(this.rootUrl, 'v2')}/login_information`, operation: 'loginInformation' },
      options,
    );
  }

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

  /** GET /v2/accounts/{accountId} (4.2). */
  async getAccount(accountId: string, options: CallOptions = {}): Promise<AccountInformation> {
    return this.#json<AccountInformation>(
      { method: 'GET', url: `${this.rootUrl}/accounts/${enc(accountId)}`, operation: 'getAccount' },
      options,
    );
  }

  /**
   * POST /v2/accounts (4.3). Not idempotent: never retried after the service
   * may have acted. In v2.1 the account's and the user's settings are objects
   * (accountSettingsInformation, userSettingsInformation), not v2's lists of
   * name/value pairs: the client sends each version its shape.
   */
  async createAccount(definition: NewAccountDefinition, options: CallOptions = {}): Promise<NewAccountSummary> {
    const summary = await this.#json<NewAccountSummary>(
      {
        method: 'POST',
        url: `${this.rootUrl}/accounts`,
        body: this.apiVersion === 'v2' ? definition : newAccountDefinitionV21(definition),
        operation: 'createAccount',
        idempotent: false,
      },
      options,
    );
    if (!summary?.accountId)
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(`${this.rootUrl}/accounts`), operation: 'createAccount' },
        'no accountId in the answer',
      );
    return summary;
  }

  /** DELETE /v2/accounts/{accountId} (4.4): the client must be logged in as a user of that account. */
  async deleteAccount(accountId: string, options: CallOptions = {}): Promise<void> {
    await this.request(
      { method: 'DELETE', url: `${this.rootUrl}/accounts/${enc(accountId)}`, operation: 'deleteAccount' },
      options,
    );
  }

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

  async #json<T>(request: Omit<ApiRequest, 'auth'>, options: CallOptions): Promise<T> {
    const response = await this.request(request, options);
    return response.json as T;
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

/** Parameters of {@link AccountClient.listEnvelopeStatusChanges}. */
export interface EnvelopeListQuery {
  /** ISO date: envelopes whose status changed since. Required by the API unless envelope or transaction ids are given. */
  fromDate?: string;
  /** `name=value` filter on envelope custom fields (Swagger `custom_field`). */
  customField?: { name: string; value: string };
  transactionIds?: string[];
  status?: string;
  /** Only these envelopes (Swagger `envelope_ids`): cheaper than a date range for a few known envelopes. */
  envelopeIds?: string[];
  /** e.g. `['recipients']`: each envelope comes with its recipients and their statuses, no call per envelope. */
  include?: string[];
  /** Position of the first envelope of the page (Swagger `start_position`). Default 0. */
  startPosition?: number;
  /** Envelopes per page (Swagger `count`; DocuSign: at most 1000). */
  count?: number;
}

/**
 * Calls scoped to one account ({account} of service-api.md, from the login
 * information's baseUrl).
 */
export class AccountClient {
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

  async #json<T>(request: Omit<ApiRequest, 'auth'>, options: CallOptions): Promise<T> {
    const response = await this.client.request(request, options);
    if (response.json === undefined || response.json === null || typeof response.json !== 'object') {
      throw new ClientBadResponseError(
        { method: request.method, path: pathOf(request.url), operation: request.operation },
        'the answer has no JSON body',
      );
    }
    return response.json as T;
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
    return this.#json<T>(
      { method, url: `${this.baseUrl}${path}`, operation, idempotent, ...(body !== undefined ? { body } : {}) },
      options,
    );
  }

  #env(envelopeId: string): string {
    return `${this.baseUrl}/envelopes/${enc(envelopeId)}`;
  }

  /**
   * POST /v2/accounts/{accountId}/envelopes (4.5). Not idempotent on the
   * wire: the retry layer repeats it only after a 429 (provably refused) or
   * a refused connection.
   */
  async createEnvelope(
    definition: EnvelopeDefinition,
    options: CallOptions & {
      /**
       * The caller makes a duplicate harmless (a draft whose duplicates it
       * finds and deletes before sending): the retry layer may then repeat
       * the call after a failure the service may have acted on. Default false.
       */
      repeatable?: boolean;
    } = {},
  ): Promise<EnvelopeSummary> {
    const url = `${this.baseUrl}/envelopes`;
    const { repeatable, ...callOptions } = options;
    const summary = await this.#json<EnvelopeSummary>(
      { method: 'POST', url, body: definition, operation: 'createEnvelope', idempotent: repeatable === true },
      callOptions,
    );
    if (typeof summary.envelopeId !== 'string')
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'createEnvelope' },
        'no envelopeId in the answer',
      );
    return summary;
  }

  /** GET /v2/accounts/{accountId}/envelopes/{envelopeId}. */
  async getEnvelope(envelopeId: string, options: CallOptions = {}): Promise<Envelope> {
    return this.#json<Envelope>({ method: 'GET', url: this.#env(envelopeId), operation: 'getEnvelope' }, options);
  }

  /** GET /v2/accounts/{accountId}/envelopes (status changes), with the custom-field filter. */
  async listEnvelopeStatusChanges(query: EnvelopeListQuery, options: CallOptions = {}): Promise<EnvelopesInformation> {
    const params = new URLSearchParams();
    if (query.fromDate) params.set('from_date', query.fromDate);
    if (query.customField) params.set('custom_field', `${query.customField.name}=${query.customField.value}`);
    if (query.transactionIds?.length) params.set('transaction_ids', query.transactionIds.join(','));
    if (query.status) params.set('status', query.status);
    if (query.envelopeIds?.length) params.set('envelope_ids', query.envelopeIds.join(','));
    if (query.include?.length) params.set('include', query.include.join(','));
    if (query.startPosition !== undefined) params.set('start_position', String(query.startPosition));
    if (query.count !== undefined) params.set('count', String(query.count));
    return this.#json<EnvelopesInformation>(
      { method: 'GET', url: `${this.baseUrl}/envelopes?${params.toString()}`, operation: 'listEnvelopes' },
      options,
    );
  }

  /**
   * PUT …/envelopes/{envelopeId} with `status: sent` (Envelopes_PutEnvelope):
   * sends a draft. Safe to repeat: a second send is refused
   * (ENVELOPE_INVALID_STATUS), never a second envelope.
   */
  async sendDraft(envelopeId: string, options: CallOptions = {}): Promise<void> {
    await this.client.request(
      {
        method: 'PUT',
        url: this.#env(envelopeId),
        body: { status: 'sent' },
        operation: 'sendDraft',
        idempotent: true,
      },
      options,
    );
  }

  /**
   * PUT …/folders/recyclebin (Folders_PutFolderById, #/definitions/foldersRequest):
   * moves drafts to the recycle bin, where DocuSign deletes them. Safe to repeat.
   */
  async deleteDrafts(envelopeIds: string[], options: CallOptions = {}): Promise<void> {
    await this.client.request(
      {
        method: 'PUT',
        url: `${this.baseUrl}/folders/recyclebin`,
        body: { envelopeIds },
        operation: 'deleteDrafts',
        idempotent: true,
      },
      options,
    );
  }

  /** POST …/envelopes/{envelopeId}/custom_fields (EnvelopeCustomFields_PostCustomFields): adds text custom fields. */
  async addTextCustomFields(
    envelopeId: string,
    fields: Array<{ name: string; value: string }>,
    options: CallOptions = {},
  ): Promise<void> {
    await this.client.request(
      {
        method: 'POST',
        url: `${this.#env(envelopeId)}/custom_fields`,
        body: { textCustomFields: fields.map((f) => ({ ...f, show: 'false' })) },
        operation: 'addCustomFields',
        // Adding the same field twice leaves the first value readable: safe to repeat.
        idempotent: true,
      },
      options,
    );
  }

  /**
   * PUT …/envelopes/{envelopeId} with `status: voided` (Swagger
   * Envelopes_PutEnvelope). Repeating it is harmless (a voided envelope
   * stays voided; the service refuses the second one), so it may be retried.
   */
  async voidEnvelope(envelopeId: string, voidedReason: string, options: CallOptions = {}): Promise<void> {
    await this.client.request(
      {
        method: 'PUT',
        url: this.#env(envelopeId),
        body: { status: 'voided', voidedReason },
        operation: 'voidEnvelope',
        idempotent: true,
      },
      options,
    );
  }

  /**
   * PUT …/envelopes/{envelopeId}/recipients?resend_envelope=true (Swagger
   * Recipients_PutRecipients): the service sends its notification again to
   * the recipients named (by recipientId) whose turn has come.
   */
  async resendToRecipients(envelopeId: string, recipientIds: string[], options: CallOptions = {}): Promise<void> {
    await this.client.request(
      {
        method: 'PUT',
        url: `${this.#env(envelopeId)}/recipients?resend_envelope=true`,
        // Signers are the only recipients a resend names today; recipientsObject files them under their collection.
        body: recipientsObject(recipientIds.map((recipientId) => ({ kind: 'signer', recipient: { recipientId } }))),
        operation: 'resendEnvelope',
        idempotent: true,
      },
      options,
    );
  }

  /**
   * GET …/envelopes/{envelopeId}/recipients (4.6); with `includeTabs`,
   * `?include_tabs=true`: every recipient's tabs with their values, which is
   * what the signers entered once the envelope is completed.
   */
  async listRecipients(
    envelopeId: string,
    options: CallOptions & { includeTabs?: boolean } = {},
  ): Promise<EnvelopeRecipients> {
    const { includeTabs, ...call } = options;
    const query = includeTabs ? '?include_tabs=true' : '';
    return this.#json<EnvelopeRecipients>(
      { method: 'GET', url: `${this.#env(envelopeId)}/recipients${query}`, operation: 'listRecipients' },
      call,
    );
  }

  /**
   * POST …/envelopes/{envelopeId}/views/recipient (4.7; Swagger
   * `recipientViewRequest` → `EnvelopeViews`). Safe to repeat: it only
   * issues a new single-use address.
   */
  async createRecipientView(
    envelopeId: string,
    request: RecipientViewRequest,
    options: CallOptions = {},
  ): Promise<ViewUrl> {
    const url = `${this.#env(envelopeId)}/views/recipient`;
    const view = await this.#json<ViewUrl>(
      { method: 'POST', url, body: request, operation: 'createRecipientView', idempotent: true },
      options,
    );
    if (typeof view.url !== 'string')
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'createRecipientView' },
        'no url in the answer',
      );
    return view;
  }

  /** GET …/envelopes/{envelopeId}/documents (4.8). */
  async listDocuments(envelopeId: string, options: CallOptions = {}): Promise<EnvelopeDocumentsResult> {
    return this.#json<EnvelopeDocumentsResult>(
      { method: 'GET', url: `${this.#env(envelopeId)}/documents`, operation: 'listDocuments' },
      options,
    );
  }

  /** GET …/envelopes/{envelopeId}/documents/{documentId} (4.9), streamed into `sink`. */
  async downloadDocument<T extends WrittenFile>(
    envelopeId: string,
    documentId: string,
    sink: DownloadSink<T>,
    options: CallOptions & {
      /** `sizeBytes` of the documents listing, when known: the download's cap follows from it. */
      announcedBytes?: number;
    } = {},
  ): Promise<T> {
    const { announcedBytes, ...call } = options;
    return this.client.download(`${this.#env(envelopeId)}/documents/${enc(documentId)}`, 'downloadDocument', sink, {
      ...call,
      expect: { kind: 'pdf', ...(announcedBytes !== undefined ? { announcedBytes } : {}) },
    });
  }

  /**
   * The certificate of completion (4.10): in v2 it is the pseudo-document
   * `certificate` of GET …/documents/{documentId} (Swagger Documents_GetDocument).
   */
  async downloadCertificate<T extends WrittenFile>(
    envelopeId: string,
    sink: DownloadSink<T>,
    options: CallOptions = {},
  ): Promise<T> {
    return this.client.download(`${this.#env(envelopeId)}/documents/certificate`, 'downloadCertificate', sink, options);
  }

  /**
   * GET …/documents/archive (Documents_GetDocument's `archive` keyword):
   * every document and the certificate of completion in one ZIP, one call
   * instead of a listing, one per document and the certificate. Through the
   * one download path (a ZIP by its first bytes, capped by `announcedBytes`,
   * the sum of the documents' `sizeBytes` when known, restarted when the body
   * breaks off), held in memory (bounded by that cap) and read by
   * {@link readArchive}: only files that are whole, within the same budget
   * unpacked, and PDFs come back, named as the archive names them
   * (src/envelope/archive-names.ts). The ZIP itself is not kept.
   */
  async downloadArchive(
    envelopeId: string,
    options: CallOptions & { announcedBytes?: number } = {},
  ): Promise<ArchiveEntry[]> {
    const { announcedBytes, ...call } = options;
    const expect: DownloadExpectation = { kind: 'zip', ...(announcedBytes !== undefined ? { announcedBytes } : {}) };
    const url = `${this.#env(envelopeId)}/documents/archive`;
    const zip = await this.client.download(url, 'downloadArchive', bufferSink, { ...call, expect });
    return readArchive(zip.bytes, `downloadArchive GET ${pathOf(url)}`, { unpackedBytes: downloadCap(expect) });
  }

  /** GET …/documents/combined: every document and the certificate in one PDF, streamed into `sink`. */
  async downloadCombined<T extends WrittenFile>(
    envelopeId: string,
    sink: DownloadSink<T>,
    options: CallOptions = {},
  ): Promise<T> {
    return this.client.download(`${this.#env(envelopeId)}/documents/combined`, 'downloadCombined', sink, options);
  }

  /**
   * POST …/templates (Templates_PostTemplates). Not idempotent: templates as
   * code make a duplicate harmless (the earliest of an identity counts, the
   * others are deleted), and say so with `repeatable`.
   */
  async createTemplate(
    definition: TemplateDefinition,
    options: CallOptions & { repeatable?: boolean } = {},
  ): Promise<{ templateId: string }> {
    const url = `${this.baseUrl}/templates`;
    const { repeatable, ...callOptions } = options;
    const summary = await this.#json<{ templateId?: unknown }>(
      { method: 'POST', url, body: definition, operation: 'createTemplate', idempotent: repeatable === true },
      callOptions,
    );
    if (typeof summary.templateId !== 'string')
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'createTemplate' },
        'no templateId in the answer',
      );
    return { templateId: summary.templateId };
  }

  /** PUT …/templates/{templateId} (Templates_PutTemplate): the definition replaces the template's. */
  async updateTemplate(templateId: string, definition: TemplateDefinition, options: CallOptions = {}): Promise<void> {
    await this.client.request(
      {
        method: 'PUT',
        url: `${this.baseUrl}/templates/${enc(templateId)}`,
        body: definition,
        operation: 'updateTemplate',
        idempotent: true,
      },
      options,
    );
  }

  /** One page of GET …/templates (Templates_GetTemplates), with `include` (custom_fields, recipients, documents…). */
  async listTemplates(
    query: { startPosition: number; count: number; include?: string[]; searchText?: string },
    options: CallOptions = {},
  ): Promise<EnvelopeTemplateResults> {
    const params = new URLSearchParams({ start_position: String(query.startPosition), count: String(query.count) });
    if (query.include?.length) params.set('include', query.include.join(','));
    if (query.searchText !== undefined) params.set('search_text', query.searchText);
    return this.#json<EnvelopeTemplateResults>(
      { method: 'GET', url: `${this.baseUrl}/templates?${params.toString()}`, operation: 'listTemplates' },
      options,
    );
  }

  /** Deletes templates: DocuSign has no DELETE of a template; it moves them to the recycle bin (Folders_PutFolderById). */
  async deleteTemplates(templateIds: string[], options: CallOptions = {}): Promise<void> {
    await this.client.request(
      {
        method: 'PUT',
        url: `${this.baseUrl}/folders/recyclebin`,
        body: { envelopeIds: templateIds },
        operation: 'deleteTemplates',
        idempotent: true,
      },
      options,
    );
  }

  /** GET …/templates/{templateId}/documents/{documentId}: the document's PDF, streamed into `sink`. */
  async downloadTemplateDocument<T extends WrittenFile>(
    templateId: string,
    documentId: string,
    sink: DownloadSink<T>,
    options: CallOptions = {},
  ): Promise<T> {
    return this.client.download(
      `${this.baseUrl}/templates/${enc(templateId)}/documents/${enc(documentId)}`,
      'downloadTemplateDocument',
      sink,
      options,
    );
  }

  /** GET /v2/accounts/{accountId}/templates/{templateId} (4.11). */
  async getTemplate(templateId: string, options: CallOptions = {}): Promise<EnvelopeTemplate> {
    return this.#json<EnvelopeTemplate>(
      { method: 'GET', url: `${this.baseUrl}/templates/${enc(templateId)}`, operation: 'getTemplate' },
      options,
    );
  }

  /** Bulk Send exists in REST v2.1 only (the Swagger's BulkSendV2*): its calls go there whatever the root's version. */
  get #bulk(): string {
    return inVersion(this.baseUrl, 'v2.1');
  }

  /**
   * POST …/bulk_send_lists (BulkSendV2CRUD_PostBulkSendList): a list of up
   * to 1,000 copies. Safe to repeat: a second list sends nothing.
   */
  async createBulkSendList(list: BulkSendingList, options: CallOptions = {}): Promise<string> {
    const url = `${this.#bulk}/bulk_send_lists`;
    const created = await this.#json<BulkSendingList>(
      { method: 'POST', url, body: list, operation: 'createBulkSendList', idempotent: true },
      options,
    );
    if (typeof created.listId !== 'string')
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'createBulkSendList' },
        'no listId in the answer',
      );
    return created.listId;
  }

  /**
   * POST …/bulk_send_lists/{listId}/send (BulkSendV2Send_PostBulkSendRequest):
   * one batch, one envelope per copy. Not idempotent: a repeat is a second
   * batch, so the retry layer never repeats it after a failure the service
   * may have acted on; the caller looks the batch up by its name instead.
   */
  async sendBulkSendList(
    listId: string,
    request: { envelopeOrTemplateId: string; batchName: string },
    options: CallOptions = {},
  ): Promise<BulkSendResponse> {
    const url = `${this.#bulk}/bulk_send_lists/${enc(listId)}/send`;
    const answer = await this.#json<BulkSendResponse>(
      { method: 'POST', url, body: request, operation: 'sendBulkSendList' },
      options,
    );
    if (typeof answer.batchId !== 'string')
      throw new ClientBadResponseError(
        { method: 'POST', path: pathOf(url), operation: 'sendBulkSendList' },
        'no batchId in the answer',
      );
    return answer;
  }

  /** GET …/bulk_send_batch/{batchId} (BulkSendV2Batch_GetBulkSendBatchStatus): queued, sent and failed counts. */
  async getBulkSendBatch(batchId: string, options: CallOptions = {}): Promise<BulkSendBatchStatus> {
    return this.#json<BulkSendBatchStatus>(
      { method: 'GET', url: `${this.#bulk}/bulk_send_batch/${enc(batchId)}`, operation: 'getBulkSendBatch' },
      options,
    );
  }

  /** GET …/bulk_send_batch (BulkSendV2Batch_GetBulkSendBatches), optionally only those with copies queued. */
  async listBulkSendBatches(
    query: { status?: 'all' | 'queued' | 'sent' | 'failed'; count?: number } = {},
    options: CallOptions = {},
  ): Promise<BulkSendBatchSummaries> {
    const params = new URLSearchParams();
    if (query.status) params.set('status', query.status);
    if (query.count !== undefined) params.set('count', String(query.count));
    return this.#json<BulkSendBatchSummaries>(
      { method: 'GET', url: `${this.#bulk}/bulk_send_batch?${params.toString()}`, operation: 'listBulkSendBatches' },
      options,
    );
  }
}

/** v2's name/value settings as v2.1's settings object. */
function settingsObject(settings: unknown): unknown {
  if (!Array.isArray(settings)) return settings;
  const out: Record<string, unknown> = {};
  for (const item of settings as Array<{ name?: unknown; value?: unknown }>) {
    if (item && typeof item.name === 'string') out[item.name] = item.value;
  }
  return out;
}

/**
 * The v2.1 shape of an account definition written in v2's: settings as
 * objects, and the unused objects left out rather than sent as the nulls of
 * service-api.md 4.3 (v2.1's Swagger types them as objects).
 */
export function newAccountDefinitionV21(definition: NewAccountDefinition): unknown {
  const kept = Object.fromEntries(Object.entries(definition).filter(([, value]) => value !== null));
  return {
    ...kept,
    accountSettings: settingsObject(definition.accountSettings),
    initialUser: { ...definition.initialUser, userSettings: settingsObject(definition.initialUser.userSettings) },
  };
}

/**
 * The page count of a document of a listing: v2 writes `pages` as a string
 * ("2"), v2.1 as a list of page objects.
 */
export function pageCountOf(document: { pages?: string | unknown[] }): number | undefined {
  const pages = document.pages;
  if (Array.isArray(pages)) return pages.length;
  if (typeof pages === 'string' && /^\d+$/.test(pages)) return Number(pages);
  return undefined;
}

/** A sink that keeps the body in memory (the caller's cap bounds it), with its size and sha256. */
async function bufferSink(body: Readable): Promise<WrittenFile & { bytes: Buffer }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    chunks.push(bytes);
  }
  const bytes = Buffer.concat(chunks);
  return { bytes, size: bytes.length, sha256: hash.digest('hex') };
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
