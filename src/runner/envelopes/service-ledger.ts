import type { AccountClient } from '../../client/esignature-client.js';
import type { Envelope } from '../../envelope/wire.js';
import { requestPriority } from '../request-priority.js';
import { listingPages, type ListingLimits } from '../../client/listing-pages.js';
import { isSignrunError } from '../../errors/signrun-error.js';
import { accountFieldName, digestFieldName, identityFieldName, jobFieldName } from '../identity.js';

/** One envelope of the service as the listing shows it. */
export interface LedgerEntry {
  envelopeId: string;
  identity: string;
  /** `createdDateTime` as the service wrote it, and in ms for ordering. */
  createdDateTime: string;
  createdMs: number;
  /** `created` (a draft), `sent`, `completed`, `voided`, `deleted` (a draft in the recycle bin) … */
  status: string;
  /** Its `signrunDigest` custom field. */
  digest?: string;
  /** An account's claim draft: the account its winner created (`signrunAccountId`). */
  accountId?: string;
}

/** Options of {@link ServiceLedger}. */
export interface ServiceLedgerOptions {
  /** Copied into the listing calls' events. Default `listing`. */
  tag?: string;
  /**
   * How far back each incremental listing reaches before the service time of
   * the previous one: a creation stamped just before a listing ran but made
   * visible just after it is still seen by the next. Default 2,000 ms (a creation is stamped at commit in `signrun serve`; DocuSign gives no figure).
   */
  overlapMs?: number;
  /** Envelopes per page (DocuSign: at most 1000). Default 1000. */
  pageSize?: number;
  /** Aborted (SIGTERM, Ctrl-C): a listing stops between pages (SR_INTERRUPTED), merging nothing of itself. */
  signal?: AbortSignal;
  /** Bounds of one listing. Default: client/listing-pages.ts, `defaultListingLimits`. */
  limits?: Partial<ListingLimits>;
  /**
   * Before a refresh's listing starts, wait until this many callers share it
   * or this long has passed (a run's drafts arrive a few at a time: one
   * listing for many of them is fewer calls; issue 24). Default: start at
   * once. A listing still starts after every call it answers.
   */
  gather?: { callers: number; ms: number };
  /** The priority of a listing's calls among requests waiting for a connection, asked as each goes out. Default `requestPriority.usual.listing`. */
  listingPriority?: () => number;
}

/** Lookups go back this far the first time: an envelope sent by any earlier run must be found. */
const beginning = '2000-01-01T00:00:00.000Z';

interface JobState {
  /** Service time (ms) at which the last listing ran; undefined before the first. */
  lastQueriedMs?: number;
  running?: Promise<void>;
  /** The listing that will start once `running` ends: every caller until then shares it. */
  queued?: Promise<void>;
  /** Callers sharing the queued listing, and what starts it early once enough have come (`gather`). */
  waiting?: number;
  gathered?: () => void;
  /** Gathered refreshes still to come ({@link ServiceLedger.expectDrafts}); undefined when not known. */
  expected?: number;
  /** A listing of the job the service did not end (SR_LISTING_UNBOUNDED): later ones fail at once. */
  broken?: Error;
}

/**
 * What the service holds of each identity, learnt from the status-changes
 * listing (GET …/envelopes, `#/paths/~1v2~1accounts~1{accountId}~1envelopes/get`)
 * filtered by the job custom field: one paged listing per job when a run
 * starts, then incremental listings (from the previous one's service time,
 * minus an overlap) that confirm drafts in batches — every draft answered
 * before a listing starts is confirmed by it. The service arbitrates races:
 * of the envelopes carrying one identity, the one that counts is the
 * earliest sent one, or when none is sent the earliest draft (created time,
 * then envelopeId); see docs/exactly-once.md, "Runners racing".
 */
export class ServiceLedger {
  readonly #account: AccountClient;
  readonly #options: Required<Omit<ServiceLedgerOptions, 'signal' | 'limits' | 'gather' | 'listingPriority'>> &
    Pick<ServiceLedgerOptions, 'signal' | 'limits' | 'gather' | 'listingPriority'>;
  readonly #byIdentity = new Map<string, Map<string, LedgerEntry>>();
  readonly #jobs = new Map<string, JobState>();
  /** Listing calls made (pages included). */
  calls = 0;

  constructor(account: AccountClient, options: ServiceLedgerOptions = {}) {
    this.#account = account;
    this.#options = { tag: 'listing', overlapMs: 2_000, pageSize: 1000, ...options };
  }

  /** Lists every envelope of the job the service holds (paged). Called once per job when a run or plan starts. */
  async load(job: string): Promise<void> {
    const state = this.#state(job);
    // Not gathered: no draft waits on the first listing, so waiting for callers would only delay the run's start.
    if (state.lastQueriedMs === undefined) await this.#refresh(job, false);
  }

  /**
   * Resolves once a listing of the job that started after this call has been
   * merged. Callers arriving while a listing runs share the next one. With
   * `gather` (the default) a draft's confirmation waits, as the ledger's
   * `gather` option says, for others to share the listing; `gather: false`
   * is for a caller that is alone by design (Bulk Send's phase, before it
   * decides again), which would only wait out the time.
   */
  refresh(job: string, options: { gather?: boolean } = {}): Promise<void> {
    return this.#refresh(job, options.gather ?? true);
  }

  #refresh(job: string, gathered: boolean): Promise<void> {
    const state = this.#state(job);
    if (gathered && state.expected !== undefined) state.expected = Math.max(0, state.expected - 1);
    if (state.queued) {
      state.waiting = (state.waiting ?? 0) + 1;
      if (this.#gatheredEnough(state)) state.gathered?.();
      return state.queued;
    }
    state.waiting = 1;
    // Callers of this same turn join the listing about to start.
    const before = state.running ?? new Promise<void>((resolve) => setImmediate(resolve));
    const queued = before
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => (gathered ? this.#gather(state) : undefined))
      .then(() => {
        state.queued = undefined;
        state.gathered = undefined;
        const running = this.#listSince(job, state);
        state.running = running;
        const clear = () => {
          if (state.running === running) state.running = undefined;
        };
        running.then(clear, clear);
        return running;
      });
    state.queued = queued;
    return queued;
  }

  /** Whether the queued listing need wait for no one more: enough callers share it, or every draft the run expects has asked. */
  #gatheredEnough(state: JobState): boolean {
    return (state.waiting ?? 0) >= (this.#options.gather?.callers ?? Infinity) || state.expected === 0;
  }

  /** Waits, with `gather`, until enough callers share the queued listing or its time is up. */
  #gather(state: JobState): Promise<void> {
    const gather = this.#options.gather;
    if (!gather || this.#gatheredEnough(state) || this.#options.signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, gather.ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      state.gathered = done;
    });
  }

  /**
   * How many drafts of the job the run will confirm (one refresh each): once
   * the last has asked, the queued listing waits for no one more. A run of
   * fewer drafts than `gather.callers` no longer waits out `gather.ms` for
   * callers that cannot come.
   */
  expectDrafts(job: string, drafts: number): void {
    this.#state(job).expected = drafts;
  }

  /** Envelopes voided and replaced by `run --replace-drifted` (issue 12): they no longer count for their identity. */
  readonly #retired = new Set<string>();

  /** Leaves these envelopes out of every identity (voided and replaced: the key's new envelope is the one). */
  retire(envelopeIds: Iterable<string>): void {
    for (const id of envelopeIds) this.#retired.add(id.toLowerCase());
  }

  /** Every envelope of this identity the service has shown, drafts in the recycle bin and retired ones left out. */
  entries(identity: string): LedgerEntry[] {
    return [...(this.#byIdentity.get(identity)?.values() ?? [])].filter(
      (e) => e.status !== 'deleted' && !this.#retired.has(e.envelopeId.toLowerCase()),
    );
  }

  /**
   * The envelope that counts for this identity: the earliest one that is not
   * a draft (sent, completed, voided …: it was sent once, nothing else may
   * be), else the earliest draft. Undefined when the service has none.
   */
  winnerOf(identity: string): LedgerEntry | undefined {
    const entries = this.entries(identity).sort(byCreation);
    return entries.find((e) => e.status !== 'created') ?? entries[0];
  }

  /** The drafts of this identity that lost to `winner`: to delete. */
  losersOf(identity: string, winner: LedgerEntry): LedgerEntry[] {
    return this.entries(identity).filter((e) => e.status === 'created' && e.envelopeId !== winner.envelopeId);
  }

  /** Identities this run is done with (settled): their entries are let go and later listings skip them. */
  readonly #settled = new Set<string>();

  /**
   * This run is done with the identity (its envelope ended): nothing of this
   * run reads its entries again, so they are let go, and the listings that
   * still show its envelope (its send, within the overlap) do not bring them
   * back. Keeps what the ledger holds from growing with a run's rows (issue 37, item 3).
   */
  settle(identity: string): void {
    this.#settled.add(identity);
    this.#byIdentity.delete(identity);
  }

  /** Records what this run did itself (a send, a deletion), so later decisions see it before the next listing. */
  note(identity: string, envelopeId: string, status: string): void {
    const entry = this.#byIdentity.get(identity)?.get(envelopeId);
    if (entry) entry.status = status;
  }

  #state(job: string): JobState {
    let state = this.#jobs.get(job);
    if (!state) {
      state = {};
      this.#jobs.set(job, state);
    }
    return state;
  }

  /**
   * One listing, paged by keyset: the listing is ordered by status change
   * time, and an envelope whose status changes moves to the end, so offsets
   * could skip one; each next page starts at the last time seen instead
   * (`from_date` is inclusive), skipping the envelopes of that time already read.
   */
  async #listSince(job: string, state: JobState): Promise<void> {
    // A listing of this job found the service not stopping: every later one would pay the same calls.
    if (state.broken) throw state.broken;
    const from =
      state.lastQueriedMs === undefined
        ? beginning
        : new Date(state.lastQueriedMs - this.#options.overlapMs).toISOString();
    let queriedMs: number | undefined;
    const listed: Envelope[] = [];
    const pages = listingPages<{ from: string; skip: number }>({
      what: `the listing of job ${job}`,
      first: { from, skip: 0 },
      fetch: ({ from: since, skip }) => {
        this.calls += 1;
        return this.#account.listEnvelopeStatusChanges(
          {
            fromDate: since,
            customField: { name: jobFieldName, value: job },
            startPosition: skip,
            count: this.#options.pageSize,
          },
          { tag: this.#options.tag, priority: this.#options.listingPriority?.() ?? requestPriority.usual.listing },
        );
      },
      next: (page, { from: since, skip }) => {
        const envelopes = page.envelopes ?? [];
        const total = Number(page.totalSetSize ?? envelopes.length);
        if (envelopes.length === 0 || envelopes.length >= total) return undefined;
        const last = envelopes[envelopes.length - 1]?.statusChangedDateTime;
        if (!last) return undefined;
        const atLast = envelopes.filter((e) => e.statusChangedDateTime === last).length;
        return last === since ? { from: since, skip: skip + envelopes.length } : { from: last, skip: atLast };
      },
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
      ...(this.#options.limits ? { limits: this.#options.limits } : {}),
    });
    try {
      for await (const page of pages) {
        if (queriedMs === undefined && page.lastQueriedDateTime) {
          const ms = Date.parse(page.lastQueriedDateTime);
          if (!Number.isNaN(ms)) queriedMs = ms;
        }
        listed.push(...(page.envelopes ?? []));
      }
    } catch (error) {
      if (isSignrunError(error) && error.code === 'SR_LISTING_UNBOUNDED') state.broken = error;
      throw error;
    }
    // Merged once the listing is whole: an interrupted or refused one changes nothing.
    for (const envelope of listed) this.#merge(envelope);
    // Without the service's time, this machine's (the overlap absorbs a small difference).
    state.lastQueriedMs = queriedMs ?? Date.now();
  }

  #merge(envelope: Envelope): void {
    const fields = envelope.customFields?.textCustomFields ?? [];
    const identity = fields.find((f) => f.name === identityFieldName)?.value;
    if (!identity || !envelope.envelopeId || this.#settled.has(identity)) return;
    const digest = fields.find((f) => f.name === digestFieldName)?.value;
    const accountId = fields.find((f) => f.name === accountFieldName)?.value;
    const createdDateTime = envelope.createdDateTime ?? '';
    const entry: LedgerEntry = {
      envelopeId: envelope.envelopeId,
      identity,
      createdDateTime,
      createdMs: Date.parse(createdDateTime) || 0,
      status: (envelope.status ?? 'created').toLowerCase(),
      ...(digest !== undefined ? { digest } : {}),
      ...(accountId ? { accountId } : {}),
    };
    let entries = this.#byIdentity.get(identity);
    if (!entries) {
      entries = new Map();
      this.#byIdentity.set(identity, entries);
    }
    // A listing that ran before this run's own send or deletion (note) answers
    // later than it: a status never goes back to draft.
    const known = entries.get(entry.envelopeId);
    if (known && known.status !== 'created' && entry.status === 'created') entry.status = known.status;
    entries.set(entry.envelopeId, entry);
  }
}

/**
 * Creation order: the created time, then the time's own digits beyond the
 * millisecond (DocuSign writes seven), then the envelopeId — the same order
 * for every runner that sees the same envelopes.
 */
function byCreation(a: LedgerEntry, b: LedgerEntry): number {
  if (a.createdMs !== b.createdMs) return a.createdMs - b.createdMs;
  if (a.createdDateTime !== b.createdDateTime) return a.createdDateTime < b.createdDateTime ? -1 : 1;
  return a.envelopeId < b.envelopeId ? -1 : a.envelopeId > b.envelopeId ? 1 : 0;
}
