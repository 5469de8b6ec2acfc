/**
 * The sandbox's time source. Injectable so that tests of token lifetimes and
 * hourly limits need not sleep. Default: `Date.now`.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** DocuSign's date-time wire form: ISO 8601 in UTC with milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
