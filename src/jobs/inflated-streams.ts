/**
 * Object streams already inflated by this thread, by their compressed bytes.
 * Letters made from one template hold the same object stream: their
 * catalogue, page tree and fonts, numbered alike; only their content streams,
 * which are never in an object stream, differ. A campaign of 10,000 per-row
 * letters then inflates a handful of distinct streams, not 10,000 (issue 37:
 * zlib's stream object a call was a quarter of the PDF worker's time, and
 * most of its garbage).
 *
 * Only small streams are remembered, and only what inflated without error:
 * the same bytes inflate to the same text, so a stream found here is the one
 * zlib would have given. The cache is emptied when full, so that it never
 * holds more than {@link maxEntries} × ({@link maxCompressed} + {@link maxInflated}) bytes.
 */
const maxCompressed = 4 * 1024;
const maxInflated = 16 * 1024;
const maxEntries = 256;

const byCompressed = new Map<string, string>();

/**
 * The inflated text (latin1) of `compressed`, from this thread's cache or
 * from `inflate` (whose errors are thrown, never cached). `limit` is the
 * most the caller accepts: a remembered text longer than it is inflated
 * again, and refused there as before.
 */
export function inflatedOnce(compressed: Buffer, limit: number, inflate: (data: Buffer) => string): string {
  if (compressed.length > maxCompressed) return inflate(compressed);
  // A string of its own, not a slice of the file's text: a key must not keep a whole file alive.
  const key = compressed.toString('latin1');
  const known = byCompressed.get(key);
  if (known !== undefined && known.length <= limit) return known;
  const text = inflate(compressed);
  if (text.length <= maxInflated) {
    if (byCompressed.size >= maxEntries) byCompressed.clear();
    byCompressed.set(key, text);
  }
  return text;
}
