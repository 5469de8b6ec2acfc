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
  #used = 0;
  #rateLimit: RateLimitInfo | undefined;
  #exhausted = false;

  /** `maxCallsPerHour` undefined: the service's headers alone decide. */
  constructor(maxCallsPerHour: number | undefined, startedAt: Date) {
    this.#max = maxCallsPerHour;
    this.#startedAt = startedAt.getTime();
  }

  /** One call reached the wire; `rateLimit` is what its answer's headers said. */
  observe(rateLimit: RateLimitInfo | undefined): void {
    this.#used += 1;
    if (rateLimit) this.#rateLimit = rateLimit;
  }

  /** Calls left, or Infinity when nothing limits them. */
  remaining(): number {
    const own = this.#max === undefined ? Infinity : this.#max - this.#used;
    const service = this.#rateLimit?.remaining ?? Infinity;
    return Math.min(own, service);
  }

  /**
   * Whether an item expected to make `calls` calls may start while items in
   * flight may still make `reserved` calls. Once false, stays false: a run
   * that stopped starting work does not start again when an answer's headers
   * move (the window may have reset; the next run will see it).
   */
  canStart(calls: number, reserved: number): boolean {
    if (this.#exhausted) return false;
    if (this.remaining() >= reserved + calls) return true;
    this.#exhausted = true;
    return false;
  }

  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** For report.json. */
  report(): CallBudgetReport {
    const r: CallBudgetReport = { used: this.#used, exhausted: this.#exhausted };
    if (this.#max !== undefined) r.maxCallsPerHour = this.#max;
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
