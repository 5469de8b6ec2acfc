/** DocuSign's rule: an integration polls at most once every 15 minutes (docs: "Polling limits"). */
export const defaultMinListingIntervalMs = 15 * 60_000;

/** How far back a listing reaches before the previous one, so a change at the boundary or a clock skew is not missed. */
export const listingOverlapMs = 5 * 60_000;

/** Whether a listing may be made now, and when the next one may be. */
export interface ListingPermission {
  allowed: boolean;
  /** When the rule allows the next listing (ISO 8601); undefined when there was none before. */
  nextAllowedAt?: string;
}

/**
 * The polling rule, honoured by signrun itself: DocuSign enforces it by
 * policy (an integration that polls too often fails its go-live review or
 * is throttled), not by refusing the call, so the sandbox answers every
 * listing and the client keeps the interval. `force` (`sync --force`)
 * lists anyway.
 */
export function listingPermission(
  lastListedAt: string | undefined,
  now: Date,
  minIntervalMs: number,
  force: boolean,
): ListingPermission {
  if (lastListedAt === undefined) return { allowed: true };
  const next = Date.parse(lastListedAt) + minIntervalMs;
  const nextAllowedAt = new Date(next).toISOString();
  return { allowed: force || !Number.isFinite(next) || now.getTime() >= next, nextAllowedAt };
}

/** The from_date of the next listing: the previous one minus the overlap, or the oldest envelope's creation minus it. */
export function nextFromDate(lastListedAt: string | undefined, oldestCreatedAt: string | undefined, now: Date): string {
  const base = lastListedAt ?? oldestCreatedAt;
  const ms = base === undefined ? now.getTime() : Date.parse(base);
  return new Date((Number.isFinite(ms) ? ms : now.getTime()) - listingOverlapMs).toISOString();
}
