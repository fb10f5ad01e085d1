// Retry delays as a pure function of the retry number and an injected random source, so tests assert exact
// schedules and the runner, plans and notifier deliveries share one definition.
import { SkipSummaryError } from "../contract/errors.js";

export type BackoffKind = "exponential" | "linear" | "fixed";

export interface BackoffOptions {
  /** A named curve, or the delays themselves in ms (the last one repeats). @default "exponential" */
  readonly backoff?: BackoffKind | readonly number[];
  /** The first delay of a curve. @default 1000 */
  readonly initialDelayMs?: number;
  /** No delay exceeds this. @default 30000 */
  readonly maxDelayMs?: number;
  /** The growth factor of `exponential`. @default 2 */
  readonly factor?: number;
  /** Each delay is drawn from [d/2, d] ("equal jitter"), so retries of many runs spread out. @default true */
  readonly jitter?: boolean;
}

export const DEFAULT_BACKOFF = Object.freeze({ backoff: "exponential" as BackoffKind, initialDelayMs: 1_000, maxDelayMs: 30_000, factor: 2, jitter: true });

/**
 * The delay before retry number `retry` (1 = the first retry), in whole ms.
 * @example backoffDelay(3, { jitter: false }) // 4000: 1s, 2s, 4s, ...
 */
export function backoffDelay(retry: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  if (!Number.isInteger(retry) || retry < 1) throw new RangeError(`Expected the retry number to be an integer >= 1, got ${retry}`);
  const o = { ...DEFAULT_BACKOFF, ...definedOnly(options) };
  let base: number;
  if (Array.isArray(o.backoff)) base = o.backoff.length === 0 ? 0 : o.backoff[Math.min(retry, o.backoff.length) - 1]!;
  else if (o.backoff === "fixed") base = o.initialDelayMs;
  else if (o.backoff === "linear") base = o.initialDelayMs * retry;
  else base = o.initialDelayMs * o.factor ** (retry - 1);
  const capped = Math.min(base, o.maxDelayMs);
  return Math.round(o.jitter ? capped / 2 + (capped / 2) * random() : capped);
}

/** The whole schedule for `retries` retries, for docs, `--json` and tests. */
export function backoffSchedule(retries: number, options: BackoffOptions = {}, random: () => number = Math.random): number[] {
  return Array.from({ length: retries }, (_, i) => backoffDelay(i + 1, options, random));
}

function durationInvalid(input: unknown, problem: string): SkipSummaryError<"retry.duration_invalid"> {
  return new SkipSummaryError("retry.duration_invalid", `${JSON.stringify(input)} is not a duration: ${problem}`, { input, problem });
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** Why `text` is not a duration, or undefined when it is one. */
export function durationProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return `expected a string such as "1s", got ${text === null ? "null" : typeof text}`;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return `add a unit: "${trimmed}s" for seconds or "${trimmed}ms" for milliseconds`;
  if (!DURATION.test(trimmed)) return 'use a number and a unit, ms, s, m or h, such as "250ms", "1s", "1.5s" or "2m"';
  return undefined;
}

/**
 * "250ms" -> 250, "1s" -> 1000, "1.5s" -> 1500, "2m" -> 120000, "1h" -> 3600000. Throws `retry.duration_invalid`.
 */
export function parseDuration(text: string): number {
  const problem = durationProblem(text);
  if (problem !== undefined) throw durationInvalid(text, problem);
  const [, amount, unit] = DURATION.exec(text.trim())!;
  return Math.round(Number(amount) * UNIT_MS[unit!]!);
}

/** "exponential" | "linear" | "fixed" | "1s,5s,30s" (a list of durations) -> the `backoff` option. */
export function parseBackoff(text: string): BackoffKind | number[] {
  const trimmed = text.trim();
  if (trimmed === "exponential" || trimmed === "linear" || trimmed === "fixed") return trimmed;
  if (!/[0-9]/.test(trimmed)) throw durationInvalid(text, "use exponential, linear, fixed, or a list of delays such as 1s,5s,30s");
  return trimmed.split(",").map((part) => parseDuration(part));
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}
