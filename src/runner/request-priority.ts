import type { EnvelopeStep } from './plan-types.js';

/**
 * Which waiting request goes out first when every connection is busy
 * (the client's slots, `--concurrency` of them): the listing that confirms
 * a batch of drafts, then the requests of envelopes further along. Finishing
 * what was begun before beginning more keeps every connection busy with few
 * envelopes waiting; first come, first served, the creates of the envelopes
 * just begun queued ahead of the sends and views that finish older ones, and
 * the batch stalled in waves while every envelope waited for one listing.
 */
export const requestPriority: Readonly<Record<EnvelopeStep | 'listing' | 'lastDrafts', number>> = {
  // The drafts of the run's last envelopes: nothing starts after them, so
  // each heads the longest chain left (draft, listing, send, views); sent
  // last, as in the steady state, they left the connections idle at the end.
  lastDrafts: 7,
  listing: 2,
  certificate: 5,
  documents: 5,
  views: 4,
  send: 3,
  // Deleting the drafts that lost: before the winner's send, which waits for it.
  confirm: 2,
  draft: 1,
};
