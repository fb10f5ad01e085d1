// One place that says which failures are worth retrying, so every notifier words and classifies them alike.
import type { NotifyResult } from "./types.js";

export type Failure = Extract<NotifyResult, { ok: false }>;

export function permanentFailure(error: string): Failure {
  return { ok: false, permanent: true, error };
}

export function transientFailure(error: string, retryAfterMs?: number): Failure {
  return retryAfterMs === undefined ? { ok: false, permanent: false, error } : { ok: false, permanent: false, error, retryAfterMs };
}

/**
 * HTTP statuses a retry can fix: 408 (request timeout), 429 (rate limited) and every 5xx.
 * Any other 4xx means the request itself is wrong (bad chat, bad token), so retrying cannot help.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** `Retry-After` in seconds (the HTTP-date form is rare for APIs and ignored), as milliseconds. */
export function retryAfterHeaderMs(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}

/** Checks a value a user's module returned; `undefined` when it is a valid {@link NotifyResult}. */
export function resultProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return `expected an object such as { ok: true }, got ${value === null ? "null" : typeof value}`;
  const r = value as Record<string, unknown>;
  if (r.ok === true) return undefined;
  if (r.ok !== false) return "expected `ok` to be true or false";
  if (typeof r.permanent !== "boolean") return "a failure must set `permanent` to true or false";
  if (typeof r.error !== "string") return "a failure must set `error` to a string";
  if (r.retryAfterMs !== undefined && (typeof r.retryAfterMs !== "number" || !(r.retryAfterMs >= 0))) return "`retryAfterMs` must be a number >= 0";
  return undefined;
}
