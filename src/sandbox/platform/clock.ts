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

const dayMs = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on toISOString writes a signed six-digit year. */
const fourDigitYearsEnd = 253_402_300_800_000;
let cachedDayStart = Number.NaN;
let cachedDayPrefix = '';
const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const threeDigits = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * DocuSign's date-time wire form: ISO 8601 in UTC with milliseconds, exactly
 * `new Date(ms).toISOString()`. The date part is made once a day and the
 * time of day written from the milliseconds: ~0.1 µs a call against ~0.35
 * for toISOString, and a listing page of 300 envelopes writes ~1,900 of them
 * on the event loop. Times before 1970, from the year 10000 on and
 * fractional ones go to toISOString (which also throws for NaN).
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < fourDigitYearsEnd) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const dayStart = ms - (ms % dayMs);
  if (dayStart !== cachedDayStart) {
    cachedDayPrefix = new Date(dayStart).toISOString().slice(0, 11); // YYYY-MM-DDT
    cachedDayStart = dayStart;
  }
  let rest = ms - dayStart;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${cachedDayPrefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${threeDigits(millis)}Z`;
}
