/** How Connect deliveries are retried. */
export interface ConnectRetryPolicy {
  /** Delay before the first retry, ms. Default 1000. */
  baseDelayMs: number;
  /** Upper bound of one delay, ms. Default 300000 (5 minutes). */
  maxDelayMs: number;
  /** Attempts in all (first try included) before a delivery is given up. Default 10. */
  maxAttempts: number;
  /** Time-out of one POST, ms. Default 10000. */
  timeoutMs: number;
}

/** Defaults of {@link ConnectRetryPolicy}. */
export const defaultConnectRetryPolicy: ConnectRetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 300_000,
  maxAttempts: 10,
  timeoutMs: 10_000,
};

/**
 * Delay before the next attempt after `attempts` failed ones (1 → base,
 * 2 → 2×base, 3 → 4×base …), capped; `undefined` when the delivery is given up.
 */
export function retryTiming(attempts: number, policy: ConnectRetryPolicy): number | undefined {
  if (attempts >= policy.maxAttempts) return undefined;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}
