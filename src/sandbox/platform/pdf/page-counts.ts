import { setBounded } from '../bounded-map.js';
import { exactPageCount } from './combine.js';

/** Exact page counts of stored documents by sha256 (content-addressed: a count never goes stale). */
export interface PageCounts {
  /** The count of a sha256 already computed, else undefined. */
  known(sha256: string): number | undefined;
  /** Computes the count (0 when pdf-lib cannot parse the bytes) unless known or under way, and remembers it. */
  count(sha256: string, bytes: () => Buffer): Promise<number>;
}

/**
 * Remembers exact page counts by sha256, up to `capacity` documents (the
 * oldest forgotten first; default 4096, a few hundred KB). The creation hot
 * path leaves the count unknown when the pages sit in compressed object
 * streams (pdf/page-count.ts), and every envelope made from the same file
 * then had it parsed by pdf-lib again at its first document listing (~1 ms
 * for a one-page PDF), while a run sends the same files to thousands of
 * envelopes. `countPages` parses (the sandbox's: on its document pool).
 */
export function createPageCounts(
  capacity = 4096,
  countPages: (bytes: Buffer) => Promise<number> = exactPageCount,
): PageCounts {
  const counts = new Map<string, number | Promise<number>>();
  return {
    known(sha256) {
      const value = counts.get(sha256);
      return typeof value === 'number' ? value : undefined;
    },
    count(sha256, bytes) {
      const value = counts.get(sha256);
      if (value !== undefined) return Promise.resolve(value);
      const counted = countPages(bytes())
        .catch(() => 0)
        .then((pages) => {
          if (counts.get(sha256) === counted) counts.set(sha256, pages);
          return pages;
        });
      setBounded(counts, sha256, counted, capacity);
      return counted;
    },
  };
}
