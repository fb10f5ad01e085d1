// Wall-clock arithmetic in an IANA time zone with nothing but Intl: "07:00 in Europe/Berlin" is a different number
// of minutes away on the nights the clocks change, so it is found as an instant, never as "now + local minutes".
// Temporal would do this in one call, but Node 20 does not ship it and a polyfill is far heavier than these lines.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    formats.set(timeZone, format);
  }
  return format;
}

/** How far the zone's wall clock is ahead of UTC at the instant `at` (ms since the epoch), in ms. */
export function zoneOffsetMs(at: number, timeZone: string): number {
  const whole = Math.floor(at / 1000) * 1000;
  const get: Record<string, number> = {};
  for (const part of formatFor(timeZone).formatToParts(whole)) if (part.type !== "literal") get[part.type] = Number(part.value);
  return Date.UTC(get.year!, get.month! - 1, get.day!, get.hour!, get.minute!, get.second!) - whole;
}

/** The zone's wall clock at `at`, written as if it were a UTC time (so getUTCHours() is the local hour). */
export function wallClockOf(at: number, timeZone: string): number {
  return at + zoneOffsetMs(at, timeZone);
}

/**
 * The first instant at or after `notBefore` at which the zone's wall clock reads `wall` (a wall-clock time
 * written as UTC). A time the clocks skip (02:30 on a spring-forward night) is reached when they jump past it;
 * a time they show twice (02:30 on a fall-back night) is the first showing not before `notBefore`.
 */
export function instantOfWallClock(wall: number, timeZone: string, notBefore: number): number {
  // Offset changes are months apart, so a day either side gives the offsets before and after any change near `wall`.
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  const shown = [...new Set([before, after])].map((offset) => wall - offset).filter((t) => wallClockOf(t, timeZone) === wall).sort((a, b) => a - b);
  if (shown.length > 0) return shown.find((t) => t >= notBefore) ?? shown.at(-1)!;
  // Skipped: the clocks jump at a whole minute between these two instants; find that minute.
  let lo = Math.floor((wall - after) / MINUTE_MS);
  let hi = Math.ceil((wall - before) / MINUTE_MS);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zoneOffsetMs(mid * MINUTE_MS, timeZone) === after) hi = mid;
    else lo = mid;
  }
  return hi * MINUTE_MS;
}
