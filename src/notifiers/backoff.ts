// How long deliver() waits before the next attempt: the shared exponential curve with equal jitter (so surfacers
// that failed together do not retry together), and never sooner than a receiver's retry_after.
import { backoffDelay } from "../retry/backoff.js";

export interface DeliveryBackoff {
  /** The delay after the first failed attempt, before jitter. @default 500 */
  readonly minDelayMs: number;
  /** No backoff grows past this; a longer `retry_after` ends the retries for this run. @default 30000 */
  readonly maxDelayMs: number;
  /** @default Math.random */
  readonly random: () => number;
}

export const DEFAULT_DELIVERY_BACKOFF: DeliveryBackoff = { minDelayMs: 500, maxDelayMs: 30_000, random: Math.random };

/**
 * The wait after failed attempt number `attempt` (1-based): `min(max, min * 2^(attempt-1))`, of which the upper
 * half is random. A `retryAfterMs` from the receiver replaces the backoff, since it says exactly when to come back.
 */
export function deliveryDelay(attempt: number, options: DeliveryBackoff, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.ceil(retryAfterMs);
  // A user-supplied random source is clamped, so a bad value (NaN, 7) cannot produce a bad delay.
  const random = () => {
    const r = options.random();
    return Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0;
  };
  return backoffDelay(attempt, { backoff: "exponential", initialDelayMs: options.minDelayMs, maxDelayMs: options.maxDelayMs, jitter: true }, random);
}
