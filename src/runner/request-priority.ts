import type { EnvelopeStep } from './plan-types.js';

/** The kinds of request a run's envelopes make: their steps, and the listing that confirms drafts. */
export type RequestKind = EnvelopeStep | 'listing';

/** Which waiting request goes out first when every connection is busy (the client's slots), highest first. */
export type RequestPriorities = Readonly<Record<RequestKind, number>>;

/**
 * The two orders of a run's requests.
 *
 * `usual`: the requests of envelopes further along, then the listing that
 * confirms a batch of drafts and the deletion of the drafts that lost, then
 * new drafts. Finishing what was begun before beginning more keeps every
 * connection busy with few envelopes waiting; first come, first served, the
 * creates of the envelopes just begun queued ahead of the sends and views
 * that finish older ones, and the batch stalled in waves while every
 * envelope waited for one listing. (The listing first of all made no run
 * faster and listed more often: it went out as soon as one draft waited.)
 *
 * `lastStretch`: once the run's last envelopes have started, nothing new
 * comes, and what ends the run is the longest chain of calls left (draft,
 * listing, send, views). The step with the longest chain after it goes
 * first, whichever envelope it is of (highest level first, the classic
 * order for chains of equal calls on a fixed number of connections). In the
 * usual order the last drafts went last, and each step of their chains then
 * waited behind the views of older envelopes while connections went idle
 * at the end (issue 37). Each usual priority maps to one of these (two
 * steps that share a usual priority share a last-stretch one), so the
 * requests already waiting are reordered with them.
 */
export const requestPriority: Readonly<{ usual: RequestPriorities; lastStretch: RequestPriorities }> = {
  usual: {
    certificate: 5,
    documents: 5,
    views: 4,
    send: 3,
    // A draft's Word letters' values: the send waits for them.
    docgen: 3,
    listing: 2,
    // Deleting the drafts that lost: before the winner's send, which waits for the deletion.
    confirm: 2,
    draft: 1,
  },
  lastStretch: {
    draft: 9,
    listing: 8,
    confirm: 8,
    docgen: 7,
    send: 7,
    views: 6,
    documents: 6,
    certificate: 6,
  },
};

/** The last-stretch priority of a request that waits with a usual one. */
const toLastStretch = new Map(
  (Object.keys(requestPriority.usual) as RequestKind[]).map((kind) => [
    requestPriority.usual[kind],
    requestPriority.lastStretch[kind],
  ]),
);

/**
 * The order a run's requests take, usual until the run's last envelopes
 * have started, then the last stretch's: shared by every envelope's
 * pipeline and the listing, so that one place switches it. The switch also
 * reorders the requests already waiting for a connection (`reorderWaiting`,
 * the client's), which would otherwise keep their usual priorities below
 * every new one: the drafts of the envelopes begun just before the stretch
 * then went out last of all.
 */
export class RequestOrder {
  #table = requestPriority.usual;
  readonly #reorderWaiting: ((map: (priority: number) => number) => void) | undefined;

  constructor(reorderWaiting?: (map: (priority: number) => number) => void) {
    this.#reorderWaiting = reorderWaiting;
  }

  /** The priority of a request of this kind made now. */
  of(kind: RequestKind): number {
    return this.#table[kind];
  }

  /** Whether the run's last envelopes have started. */
  get inLastStretch(): boolean {
    return this.#table === requestPriority.lastStretch;
  }

  /** The run's last envelopes have started: from now on, longest chain first, and what waits is reordered. */
  enterLastStretch(): void {
    if (this.inLastStretch) return;
    this.#table = requestPriority.lastStretch;
    this.#reorderWaiting?.((priority) => toLastStretch.get(priority) ?? priority);
  }
}
