import type { AccountClient, CallOptions } from '../client/esignature-client.js';
import { recipientsByKind, type Envelope, type EnvelopesInformation } from '../envelope/wire.js';
import { listingPages, type ListingLimits } from '../client/listing-pages.js';

/**
 * What each envelope of the listing comes with: its recipients and their
 * statuses, their tabs (form data: DocuSign's Swagger gives `tabs,recipients`
 * as its example of this listing's `include`), and its documents' ids, names
 * and sizes — what the archive of a completed one lacks to name its files
 * (collect.ts) — so none of them costs a call per envelope. A service whose
 * listing leaves the tabs out costs one read of the recipients per completed
 * envelope instead (sync.ts says so in the report).
 */
export const listingIncludes = ['recipients', 'tabs', 'documents'];

/** DocuSign's largest page of the status-changes listing. */
export const listingPageSize = 1000;
/** envelope_ids per call: keeps the query string well under the 2,048 characters proxies allow (36 + 1 per id). */
export const envelopeIdsBatch = 40;

/** What one account's listing found. */
export interface ListingResult {
  /** By envelopeId (lower case). */
  envelopes: Map<string, Envelope>;
  /** Wire calls made (pages and batches). */
  calls: number;
  /** The service's `lastQueriedDateTime` of the first page: where the next listing may start. */
  listedAt: string | undefined;
  /**
   * True when some recipient of the listing came with its tabs: the service
   * honours `include=tabs`, so a completed envelope's recipients as listed
   * are its form data (a recipient listed without tabs has none).
   */
  carriesTabs: boolean;
}

/**
 * The account-level status-changes listing (GET …/envelopes, Swagger
 * Envelopes_GetEnvelopes) with `include=recipients,tabs,documents`: every envelope whose
 * status changed since `fromDate`, each with its recipients, their statuses and tabs, and its documents,
 * paged by `start_position` — never a request per envelope (DocuSign forbids
 * polling one envelope more often than every 15 minutes and recommends this
 * listing: https://www.docusign.com/blog/dsdev-has-my-envelope-been-signed).
 * `envelopeIds` adds batches for envelopes known to have changed before
 * `fromDate` that no listing has shown yet. Paged by the one bounded,
 * cancellable loop (client/listing-pages.ts): a service that does not stop
 * ends in SR_LISTING_UNBOUNDED, an abort in SR_INTERRUPTED, and nothing is
 * returned of an unfinished listing.
 */
export async function listStatusChanges(
  account: AccountClient,
  query: { fromDate?: string; envelopeIds?: string[] },
  options: CallOptions & { limits?: Partial<ListingLimits> } = {},
): Promise<ListingResult> {
  // The signal stops the listing between pages (listing-pages.ts), not a page in flight.
  const { limits, signal, ...call } = options;
  const result: ListingResult = { envelopes: new Map(), calls: 0, listedAt: undefined, carriesTabs: false };
  const what = `the status listing of account ${account.accountId}`;
  const take = (page: EnvelopesInformation) => {
    result.calls += 1;
    result.listedAt ??= page.lastQueriedDateTime;
    for (const e of page.envelopes ?? []) {
      if (!e.envelopeId) continue;
      result.envelopes.set(e.envelopeId.toLowerCase(), e);
      result.carriesTabs ||= recipientsByKind(e.recipients).some(({ recipient }) => recipient.tabs !== undefined);
    }
  };
  const fromDate = query.fromDate;
  if (fromDate !== undefined) {
    const pages = listingPages<number>({
      what,
      first: 0,
      fetch: (start) =>
        account.listEnvelopeStatusChanges(
          { fromDate, include: listingIncludes, startPosition: start, count: listingPageSize },
          call,
        ),
      next: (page, start) => {
        const got = page.envelopes?.length ?? 0;
        const total = Number(page.totalSetSize ?? got);
        return got === 0 || !Number.isFinite(total) || start + got >= total ? undefined : start + got;
      },
      ...(signal ? { signal } : {}),
      ...(limits ? { limits } : {}),
    });
    for await (const page of pages) take(page);
  }
  const ids = (query.envelopeIds ?? []).filter((id) => !result.envelopes.has(id.toLowerCase()));
  if (ids.length > 0) {
    // The batches walk as pages of one listing: the same bounds, the same stop between them.
    const batches = listingPages<number>({
      what: `${what} (by envelope id)`,
      first: 0,
      fetch: (i) =>
        account.listEnvelopeStatusChanges(
          { envelopeIds: ids.slice(i, i + envelopeIdsBatch), include: listingIncludes },
          call,
        ),
      next: (_page, i) => (i + envelopeIdsBatch < ids.length ? i + envelopeIdsBatch : undefined),
      ...(signal ? { signal } : {}),
      // As many pages as batches: a batch's total is of its own ids, not of the listing.
      limits: { ...limits, maxPages: Math.ceil(ids.length / envelopeIdsBatch) },
      capFromTotal: false,
    });
    for await (const page of batches) take(page);
  }
  return result;
}
