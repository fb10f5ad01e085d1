// Nights, dates and gaps as the owner reads them: counted in one time zone (the config's `time_zone`), so that
// "5th night in a row" means calendar days where the owner lives, not UTC days.

const DAY_MS = 86_400_000;
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const shortFormats = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError naming the zone when it is not a time zone this Node knows. */
export function checkTimeZone(timeZone: string): void {
  new Intl.DateTimeFormat("en-GB", { timeZone });
}

/** The calendar day of `at` in `timeZone`, as `YYYY-MM-DD`. */
export function dayOf(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** Whole days from day `a` to day `b` (both `YYYY-MM-DD`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** `18 Nov`, in the owner's time zone. */
export function shortDate(at: Date, timeZone: string): string {
  let format = shortFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short" });
    shortFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** A gap of whole days in the largest unit that reads naturally: `2 days`, `3 weeks`, `4 months`. */
export function gapWords(days: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (days < 14) return plural(days, "day");
  if (days < 60) return plural(Math.round(days / 7), "week");
  if (days < 730) return plural(Math.round(days / 30), "month");
  return plural(Math.round(days / 365), "year");
}
