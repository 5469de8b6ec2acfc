import { createHash } from 'node:crypto';

/**
 * The digest written in the `signrunDigest` custom field: `sha256:` and the
 * hex sha256 of the canonical JSON of `content` (object keys sorted at every
 * level, `undefined` members left out, as JSON.stringify does). Two contents
 * that differ only in key order have the same digest, so re-ordering a YAML
 * file is not drift; any change of a value is.
 *
 * The caller decides what `content` is (the runner: what it sends, plus the
 * sha256 of each document's bytes instead of the bytes themselves).
 */
export function contentDigest(content: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex')}`;
}

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
