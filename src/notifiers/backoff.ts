// How long to wait before the next attempt: exponential backoff with "equal jitter" (half fixed, half random), so
// many surfacers that failed together do not retry together, and never sooner than a receiver's retry_after.

export interface BackoffOptions {
  /** The delay after the first failed attempt, before jitter. @default 500 */
  readonly minDelayMs: number;
  /** No backoff grows past this; a longer `retry_after` ends the retries for this run. @default 30000 */
  readonly maxDelayMs: number;
  /** @default Math.random */
  readonly random: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { minDelayMs: 500, maxDelayMs: 30_000, random: Math.random };

/**
 * The wait after failed attempt number `attempt` (1-based): `min(max, min * 2^(attempt-1))`, of which the upper
 * half is random. A `retryAfterMs` from the receiver replaces the backoff, since it says exactly when to come back.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.ceil(retryAfterMs);
  const base = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** (attempt - 1));
  return Math.round(base / 2 + (base / 2) * clamp01(options.random()));
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** A sleep that ends early, rejecting with the signal's reason, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
