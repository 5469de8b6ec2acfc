/**
 * What the service last said about its rate limits, from the headers of a
 * response. DocuSign sends `X-RateLimit-Limit/Remaining/Reset` (hourly) and
 * `X-BurstLimit-Limit/Remaining` (per 30 s) on API responses.
 */
export interface RateLimitInfo {
  /** Calls allowed in the hourly window. */
  limit?: number;
  /** Calls left in the hourly window. */
  remaining?: number;
  /** When the hourly window ends, ISO 8601. */
  resetAt?: string;
  /**
   * The service's time when it answered (its `Date` header), ISO 8601: the
   * reset is in the service's clock, so a wait until it is measured from
   * this, not from the local clock, which may be minutes off.
   */
  serviceTime?: string;
  burstLimit?: number;
  burstRemaining?: number;
}

interface HeaderBag {
  get(name: string): string | null;
}

function int(headers: HeaderBag, name: string): number | undefined {
  const v = headers.get(name);
  if (v === null || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v.trim());
}

/** Reads the rate-limit headers of one response; undefined when it carries none. */
export function readRateLimit(headers: HeaderBag): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  const limit = int(headers, 'x-ratelimit-limit');
  const remaining = int(headers, 'x-ratelimit-remaining');
  const reset = int(headers, 'x-ratelimit-reset');
  const burstLimit = int(headers, 'x-burstlimit-limit');
  const burstRemaining = int(headers, 'x-burstlimit-remaining');
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (reset !== undefined) info.resetAt = new Date(reset * 1000).toISOString();
  if (burstLimit !== undefined) info.burstLimit = burstLimit;
  if (burstRemaining !== undefined) info.burstRemaining = burstRemaining;
  if (Object.keys(info).length === 0) return undefined;
  const date = Date.parse(headers.get('date') ?? '');
  if (Number.isFinite(date)) info.serviceTime = new Date(date).toISOString();
  return info;
}
