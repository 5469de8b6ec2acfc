import type { RateLimitInfo } from '../client/rate-limit.js';

/** What report.json says about the hourly call budget (issue 6, item 5). */
export interface CallBudgetReport {
  /** `--max-calls-per-hour`, when given; else the budget is what the service's `x-ratelimit-remaining` says. */
  maxCallsPerHour?: number;
  /** Calls this run made. */
  used: number;
  /** True when the run stopped starting work because the budget could not cover one more item. */
  exhausted: boolean;
  /**
   * When a run may continue, ISO 8601: the service's `x-ratelimit-reset`
   * when it said so, else one hour after this run started (the window of
   * `--max-calls-per-hour` is the run's own hour). Present when exhausted.
   */
  resumeAt?: string;
  /** `SR_CALL_BUDGET_SPENT` when exhausted. */
  code?: 'SR_CALL_BUDGET_SPENT';
  /** Hourly windows the run spread over (`run --spread-over-hours`), when more than one. */
  windows?: number;
}

/**
 * The hourly call budget: before the runner starts an item it asks
 * {@link CallBudget.canStart}; the answer is no once the calls left (the
 * smaller of `--max-calls-per-hour` minus this run's calls and the service's
 * `x-ratelimit-remaining`) cannot cover the calls the items in flight may
 * still make plus the new item's. Reserving for items in flight is what lets
 * them finish instead of being refused half-done. The service's own count
 * spans runs and other clients of the account, so a second run in the same
 * hour starts from what is really left.
 */
export class CallBudget {
  readonly #max: number | undefined;
  readonly #startedAt: number;
  readonly #spread: boolean;
  #used = 0;
  /** Calls made in the run's own window (`--max-calls-per-hour`): the current hour since the run started. */
  #usedInWindow = 0;
  #windowStart: number;
  #rateLimit: RateLimitInfo | undefined;
  #exhausted = false;
  #windows = 1;

  /**
   * `maxCallsPerHour` undefined: the service's headers alone decide.
   * `spread`: when the budget is spent, the run waits for the next window
   * instead of stopping (`run --spread-over-hours`).
   */
  constructor(maxCallsPerHour: number | undefined, startedAt: Date, options: { spread?: boolean } = {}) {
    this.#max = maxCallsPerHour;
    this.#startedAt = startedAt.getTime();
    this.#windowStart = this.#startedAt;
    this.#spread = options.spread === true;
  }

  /** One call reached the wire; `rateLimit` is what its answer's headers said. */
  observe(rateLimit: RateLimitInfo | undefined): void {
    this.#used += 1;
    this.#usedInWindow += 1;
    if (rateLimit) this.#rateLimit = rateLimit;
  }

  /** Calls left, or Infinity when nothing limits them. */
  remaining(): number {
    const own = this.#max === undefined ? Infinity : this.#max - this.#usedInWindow;
    const service = this.#rateLimit?.remaining ?? Infinity;
    return Math.min(own, service);
  }

  /**
   * Whether an item expected to make `calls` calls may start while items in
   * flight may still make `reserved` calls. Without spreading, once false,
   * stays false: a run that stopped starting work does not start again when
   * an answer's headers move (the window may have reset; the next run will
   * see it). With spreading, false means "after the next window opens".
   */
  canStart(calls: number, reserved: number): boolean {
    if (this.#exhausted) return false;
    if (this.remaining() >= reserved + calls) return true;
    if (!this.#spread) this.#exhausted = true;
    return false;
  }

  /** Whether the run waits for the next window when the budget is spent. */
  get spreads(): boolean {
    return this.#spread && !this.#exhausted;
  }

  /**
   * When the window that refused an item resets, by the local clock: the
   * service's `x-ratelimit-reset` measured from the service's own time (its
   * Date header) when its limit is the one spent, else the run's own hour.
   * A second of margin covers the Date header's one-second resolution.
   */
  nextWindowAt(now: Date): Date {
    const own = this.#max === undefined ? Infinity : this.#max - this.#usedInWindow;
    const service = this.#rateLimit?.remaining ?? Infinity;
    const reset = this.#rateLimit?.resetAt ? Date.parse(this.#rateLimit.resetAt) : NaN;
    if (service <= own && Number.isFinite(reset)) {
      const serviceNow = this.#rateLimit?.serviceTime ? Date.parse(this.#rateLimit.serviceTime) : now.getTime();
      return new Date(now.getTime() + Math.max(0, reset - serviceNow) + 1000);
    }
    return new Date(this.#windowStart + 3_600_000);
  }

  /**
   * The next window has come: the run's own count starts again, and the
   * service's is its whole limit until its next answer says otherwise.
   */
  openWindow(now: Date): void {
    if (now.getTime() >= this.#windowStart + 3_600_000) {
      this.#windowStart = now.getTime();
      this.#usedInWindow = 0;
    }
    // A fresh window of the service holds its whole limit, less what other
    // clients of the account spend: its next answer says.
    if (this.#rateLimit) {
      const { remaining: _spent, ...rest } = this.#rateLimit;
      this.#rateLimit = rest.limit !== undefined ? { ...rest, remaining: rest.limit } : rest;
    }
    this.#windows += 1;
  }

  /** Calls a whole window allows: the smaller of the service's limit and `--max-calls-per-hour`; undefined when neither is known. */
  windowCalls(): number | undefined {
    const limits = [this.#max, this.#rateLimit?.limit].filter((n): n is number => n !== undefined && n > 0);
    return limits.length > 0 ? Math.min(...limits) : undefined;
  }

  /** A window opened and still nothing fits (an item needs more calls than a whole window): stop as without spreading. */
  giveUp(): void {
    this.#exhausted = true;
  }

  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** For report.json. */
  report(): CallBudgetReport {
    const r: CallBudgetReport = { used: this.#used, exhausted: this.#exhausted };
    if (this.#max !== undefined) r.maxCallsPerHour = this.#max;
    if (this.#windows > 1) r.windows = this.#windows;
    if (this.#exhausted) {
      const ownReset = new Date(this.#startedAt + 3_600_000).toISOString();
      const serviceSpent =
        (this.#rateLimit?.remaining ?? Infinity) <= (this.#max === undefined ? Infinity : this.#max - this.#used);
      r.resumeAt = serviceSpent && this.#rateLimit?.resetAt ? this.#rateLimit.resetAt : ownReset;
      r.code = 'SR_CALL_BUDGET_SPENT';
    }
    return r;
  }
}
