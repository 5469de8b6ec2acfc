import type { AccountClient, CallOptions } from '../client/esignature-client.js';
import type { Envelope } from '../envelope/wire.js';

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
}

/**
 * The account-level status-changes listing (GET …/envelopes, Swagger
 * Envelopes_GetEnvelopes) with `include=recipients`: every envelope whose
 * status changed since `fromDate`, each with its signers and their statuses,
 * paged by `start_position` — never a request per envelope (DocuSign forbids
 * polling one envelope more often than every 15 minutes and recommends this
 * listing: https://www.docusign.com/blog/dsdev-has-my-envelope-been-signed).
 * `envelopeIds` adds batches for envelopes known to have changed before
 * `fromDate` that no listing has shown yet.
 */
export async function listStatusChanges(
  account: AccountClient,
  query: { fromDate?: string; envelopeIds?: string[] },
  options: CallOptions = {},
): Promise<ListingResult> {
  const result: ListingResult = { envelopes: new Map(), calls: 0, listedAt: undefined };
  const take = (list: Envelope[] | undefined) => {
    for (const e of list ?? []) if (e.envelopeId) result.envelopes.set(e.envelopeId.toLowerCase(), e);
  };
  if (query.fromDate !== undefined) {
    for (let start = 0; ;) {
      const page = await account.listEnvelopeStatusChanges(
        { fromDate: query.fromDate, include: ['recipients'], startPosition: start, count: listingPageSize },
        options,
      );
      result.calls += 1;
      result.listedAt ??= page.lastQueriedDateTime;
      take(page.envelopes);
      const got = page.envelopes?.length ?? 0;
      const total = Number(page.totalSetSize ?? got);
      start += got;
      if (got === 0 || !Number.isFinite(total) || start >= total) break;
    }
  }
  const ids = (query.envelopeIds ?? []).filter((id) => !result.envelopes.has(id.toLowerCase()));
  for (let i = 0; i < ids.length; i += envelopeIdsBatch) {
    const page = await account.listEnvelopeStatusChanges(
      { envelopeIds: ids.slice(i, i + envelopeIdsBatch), include: ['recipients'] },
      options,
    );
    result.calls += 1;
    result.listedAt ??= page.lastQueriedDateTime;
    take(page.envelopes);
  }
  return result;
}
