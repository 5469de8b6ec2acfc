import { SignrunError } from '../errors/signrun-error.js';
import type { Envelope, EnvelopesInformation } from '../envelope/wire.js';

/**
 * How far one listing may go before it is taken for a service that does not
 * stop (issue 25). Defaults: {@link defaultListingLimits}.
 */
export interface ListingLimits {
  /** Pages of one listing, whatever the service announces. */
  maxPages: number;
  /** The largest `totalSetSize` believed: more is refused at the first page. */
  maxTotal: number;
}

/**
 * One million envelopes (a thousand of DocuSign's largest pages): far more
 * than a job or a status listing of one account between two syncs holds,
 * far less than what a runaway service costs (the hourly limit is 3,000
 * calls).
 */
export const defaultListingLimits: ListingLimits = { maxPages: 1000, maxTotal: 1_000_000 };

/** What {@link listingPages} needs to walk one listing. */
export interface ListingWalk<C> {
  /** Named in errors: `the status listing of account …`. */
  what: string;
  /** The first page's cursor. */
  first: C;
  /** Asks for one page. */
  fetch: (cursor: C) => Promise<EnvelopesInformation>;
  /** The next page's cursor, or undefined when this page was the last. */
  next: (page: EnvelopesInformation, cursor: C) => C | undefined;
  /**
   * Aborted (SIGTERM, Ctrl-C): the listing stops before its next page with
   * SR_INTERRUPTED. The first page always goes and a page in flight is
   * finished: work in flight (a draft waiting for its confirmation) still
   * finishes on a service whose listing is one page, as a run promises.
   */
  signal?: AbortSignal;
  limits?: Partial<ListingLimits>;
  /**
   * Caps the pages at twice what the first page's `totalSetSize` needs.
   * Default true; false when each page's total is its own (batches by id).
   */
  capFromTotal?: boolean;
}

/**
 * The one paging loop of every listing the client makes (the status
 * listing of `sync`, the run's ledger and its confirmations), bounded and
 * cancellable: a service answering the first page forever, announcing a
 * billion envelopes or paging without end is refused with
 * SR_LISTING_UNBOUNDED after a bounded number of calls, and an abort stops
 * it between pages with SR_INTERRUPTED. Either way
 * the caller has been given only whole pages and applies nothing of an
 * unfinished listing (it has recorded nothing yet), so the state stays as
 * the last finished listing left it.
 *
 * Checks, per page: `totalSetSize` a whole number no larger than
 * `maxTotal`; a page that is not a repeat of an earlier one (the same
 * envelopes in the same order) and brings at least one envelope not seen
 * before; no more pages than twice what the first page's total needs (plus
 * two: envelopes whose status changes while the listing runs move to its
 * end), nor than `maxPages`.
 */
export async function* listingPages<C>(walk: ListingWalk<C>): AsyncGenerator<EnvelopesInformation> {
  const limits = { ...defaultListingLimits, ...walk.limits };
  const seen = new Set<string>();
  const pagesSeen = new Set<string>();
  let cap = limits.maxPages;
  let cursor = walk.first;
  for (let pages = 0; ;) {
    if (pages > 0 && walk.signal?.aborted) throw interrupted(walk.what, pages);
    const page = await walk.fetch(cursor);
    pages += 1;
    const envelopes: Envelope[] = Array.isArray(page.envelopes) ? page.envelopes : [];
    const total = totalOf(page);
    if (total === 'invalid' || (total !== undefined && total > limits.maxTotal))
      throw unbounded(walk.what, 'total-size', pages, {
        totalSetSize: page.totalSetSize,
        maxTotal: limits.maxTotal,
      });
    if (pages === 1 && walk.capFromTotal !== false && total !== undefined && envelopes.length > 0)
      cap = Math.min(limits.maxPages, Math.ceil(total / envelopes.length) * 2 + 2);
    if (envelopes.length > 0) {
      const ids = envelopes.map((e) => String(e.envelopeId ?? '').toLowerCase());
      const signature = ids.join(',');
      const fresh = ids.filter((id) => !seen.has(id)).length;
      if (pagesSeen.has(signature) || fresh === 0) throw unbounded(walk.what, 'repeated-page', pages, {});
      pagesSeen.add(signature);
      for (const id of ids) seen.add(id);
    }
    yield page;
    const next = walk.next(page, cursor);
    if (next === undefined) return;
    if (pages >= cap) throw unbounded(walk.what, 'page-cap', pages, { maxPages: cap });
    cursor = next;
  }
}

/** The page's `totalSetSize` as a number; `invalid` when it is not a whole number. */
function totalOf(page: EnvelopesInformation): number | undefined | 'invalid' {
  const raw = page.totalSetSize;
  if (raw === undefined || raw === null) return undefined;
  const text = String(raw).trim();
  if (!/^\d{1,15}$/.test(text)) return 'invalid';
  return Number(text);
}

const reasons = {
  'total-size': 'announced a total the listing cannot be (more envelopes than signrun believes, or not a number)',
  'repeated-page': 'answered a page it had answered already (or one with no envelope not seen before)',
  'page-cap': 'kept answering pages beyond what its own total needs',
} as const;

function unbounded(
  what: string,
  reason: keyof typeof reasons,
  pages: number,
  details: Record<string, unknown>,
): SignrunError {
  return new SignrunError(
    'SR_LISTING_UNBOUNDED',
    `${what}: the service ${reasons[reason]}; stopped after ${pages} page(s), nothing of this listing was recorded`,
    { details: { reason, pages, ...details } },
  );
}

function interrupted(what: string, pages: number): SignrunError {
  return new SignrunError(
    'SR_INTERRUPTED',
    `${what} was interrupted after ${pages} page(s); nothing of it was recorded (the next listing starts where the last finished one did)`,
    { details: { pages } },
  );
}
