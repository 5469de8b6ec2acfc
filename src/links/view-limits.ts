/**
 * How often a links server may ask the service for a signing address. Each
 * new address costs the account two API calls (the envelope's status, then
 * the view); a link holder who reloads, or a script that opens one link in
 * a loop, must not spend the account's hourly budget. So each link may make
 * at most `perLink` addresses in `windowMs`, and the server at most `global`
 * in `windowMs`; an opening beyond that is told when to come back (429,
 * Retry-After). An address can also be handed out again for `reuseMs` after
 * it was made — off by default: DocuSign's signing addresses open once, so
 * the same address given to a second browser (the signer's phone, a
 * colleague's screen) would be a dead page there.
 */
export interface ViewLimitSettings {
  /** How long a made address is handed out again (ms); default 0 (never: an address opens once). */
  reuseMs: number;
  /** Addresses one link may make in a window; default 6. */
  perLink: number;
  /** Addresses the whole server may make in a window; default 120 (240 calls of DocuSign's 3,000 an hour, per 10 minutes at most: the rest stays the owner's). */
  global: number;
  /** The window (ms); default 10 minutes. */
  windowMs: number;
}

export const defaultViewLimits: ViewLimitSettings = { reuseMs: 0, perLink: 6, global: 120, windowMs: 600_000 };

/** What to do with an opening: hand out a live address, make one, or ask to wait. */
export type ViewDecision =
  | { kind: 'reuse'; url: string }
  | { kind: 'mint'; at: number }
  | { kind: 'wait'; retryAfterSeconds: number; scope: 'link' | 'server' };

/** Links at most this many remembered (a few bytes each): the oldest are forgotten first. */
const maxLinks = 100_000;

export class ViewLimits {
  readonly #settings: ViewLimitSettings;
  readonly #now: () => number;
  /** Per link: the live address and when it was made, and when its recent addresses were made. */
  readonly #links = new Map<string, { url?: string; madeAt?: number; mints: number[] }>();
  #mints: number[] = [];

  constructor(settings: Partial<ViewLimitSettings> = {}, now: () => number = () => Date.now()) {
    this.#settings = { ...defaultViewLimits, ...settings };
    this.#now = now;
  }

  /**
   * Decides an opening of `link` (its token). A `mint` is counted at once
   * (openings arrive together: each must see the others' addresses being
   * made); {@link done} says how it ended.
   */
  decide(link: string): ViewDecision {
    const now = this.#now();
    const s = this.#settings;
    const entry = this.#links.get(link) ?? { mints: [] };
    if (entry.url !== undefined && entry.madeAt !== undefined && now - entry.madeAt < s.reuseMs)
      return { kind: 'reuse', url: entry.url };
    const since = now - s.windowMs;
    entry.mints = entry.mints.filter((t) => t > since);
    this.#mints = this.#mints.filter((t) => t > since);
    if (entry.mints.length >= s.perLink)
      return { kind: 'wait', retryAfterSeconds: Math.ceil((entry.mints[0]! + s.windowMs - now) / 1000), scope: 'link' };
    if (this.#mints.length >= s.global)
      return {
        kind: 'wait',
        retryAfterSeconds: Math.ceil((this.#mints[0]! + s.windowMs - now) / 1000),
        scope: 'server',
      };
    entry.mints.push(now);
    this.#mints.push(now);
    // Most recently used last: the oldest links are forgotten first.
    this.#links.delete(link);
    this.#links.set(link, entry);
    if (this.#links.size > maxLinks) this.#links.delete(this.#links.keys().next().value!);
    return { kind: 'mint', at: now };
  }

  /**
   * How a `mint` ended: `url`, the address made (handed out again for
   * `reuseMs`); `calledService` false, no call was made after all (the
   * envelope is settled, by its record): the opening is not counted.
   */
  done(link: string, at: number, outcome: { url?: string; calledService: boolean }): void {
    const entry = this.#links.get(link);
    if (!outcome.calledService) {
      const drop = (list: number[]) => {
        const i = list.lastIndexOf(at);
        if (i >= 0) list.splice(i, 1);
      };
      if (entry) drop(entry.mints);
      drop(this.#mints);
      return;
    }
    if (entry && outcome.url !== undefined) {
      entry.url = outcome.url;
      entry.madeAt = at;
    }
  }
}
