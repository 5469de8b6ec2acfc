import type { EnvelopeStep } from './plan-types.js';

/**
 * Which waiting request goes out first when every connection is busy (the
 * client's slots, `--concurrency` of them), highest first: the requests of
 * envelopes further along, then the listing that confirms a batch of drafts
 * and the deletion of the drafts that lost, then new drafts. Finishing what
 * was begun before beginning more keeps every connection busy with few
 * envelopes waiting; first come, first served, the creates of the envelopes
 * just begun queued ahead of the sends and views that finish older ones, and
 * the batch stalled in waves while every envelope waited for one listing.
 * (The listing first of all made no run faster and listed more often: it
 * went out as soon as one draft waited.)
 */
export const requestPriority: Readonly<Record<EnvelopeStep | 'listing' | 'lastDrafts', number>> = {
  // The drafts of the run's last envelopes: nothing starts after them, so
  // each heads the longest chain left (draft, listing, send, views); sent
  // last, as in the steady state, they left the connections idle at the end.
  lastDrafts: 7,
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
};
