/**
 * Parses an HTTP `Retry-After` value (RFC 9110 §10.2.3: delay-seconds or an
 * HTTP-date) into milliseconds from `now`. Returns undefined when absent or
 * unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date always names its month ("Fri, 20 Nov 2026 …"); "1.5" or "-3" are neither form.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Parses DocuSign's `X-RateLimit-Reset` (and `X-BurstLimit-Reset`): the Unix
 * time, in seconds, at which the current window ends
 * (https://developers.docusign.com/platform/account/rate-limits/). Returns the
 * milliseconds from `now` until then, 0 when already past, undefined when
 * absent or unreadable.
 */
export function parseRateLimitReset(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d+$/.test(text)) return undefined;
  return Math.max(0, Number(text) * 1000 - now);
}
