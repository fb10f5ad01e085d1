// Owner-facing periods ("mute for 7d", "repeat every 24h", "history --since 7d") run from minutes to weeks, which
// the retry durations (ms to hours) do not cover; one parser keeps the three flags and the config alike.

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const PERIOD = /^(\d+(?:\.\d+)?)(m|h|d|w)$/;
/**
 * The longest period: 520 weeks (about 10 years). A date that far ahead or back is still a date; 99999999999w is
 * not (`new Date` past ±8.64e15 ms is Invalid Date, and printing it threw: exit 70).
 */
export const MAX_PERIOD_MS = 520 * UNIT_MS.w!;
const RANGE = "a period is longer than zero and at most 520w (about 10 years)";

/** Why `text` is not a period, or `undefined` when it is one. */
export function periodProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return `expected a string such as "7d", got ${text === null ? "null" : typeof text}`;
  const m = PERIOD.exec(text.trim());
  if (!m) return `${JSON.stringify(text)} is not a period: use a number and a unit, m (minutes), h, d or w, such as "30m", "24h", "7d" or "2w"`;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  if (ms <= 0) return `${JSON.stringify(text)} is not a period: it must be longer than zero (${RANGE})`;
  if (!(ms <= MAX_PERIOD_MS)) return `${JSON.stringify(text)} is too long: ${RANGE}`;
  return undefined;
}

/** "30m" -> 1800000, "24h", "7d", "2w"; throws a RangeError with {@link periodProblem}'s words. */
export function parsePeriod(text: string): number {
  const problem = periodProblem(text);
  if (problem !== undefined) throw new RangeError(problem);
  const [, amount, unit] = PERIOD.exec(text.trim())!;
  return Math.round(Number(amount) * UNIT_MS[unit!]!);
}

/** 604800000 -> "7d", 5400000 -> "90m": the largest whole unit, for messages. */
export function formatPeriod(ms: number): string {
  for (const unit of ["w", "d", "h", "m"] as const) if (ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  return `${Math.round(ms / 60_000)}m`;
}
