// Quiet hours: skips found at 3 a.m. wait on disk until the window ends, then go out as one digest. The window is
// read in its own time zone and may span midnight (22:00-07:00). Held files are never claimed for long or deleted.
import { instantOfWallClock, wallClockOf } from "./zoned-time.js";

export interface QuietHours {
  /** Minutes after local midnight. */
  readonly start: number;
  readonly end: number;
  readonly timeZone: string;
}

const DAY_MS = 86_400_000;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function clockProblem(text: unknown): string | undefined {
  return typeof text === "string" && CLOCK.test(text) ? undefined : `must be a time of day HH:MM (24-hour), such as "22:00", got ${JSON.stringify(text)}`;
}

export function parseClock(text: string): number {
  const m = CLOCK.exec(text);
  if (!m) throw new RangeError(clockProblem(text));
  return Number(m[1]) * 60 + Number(m[2]);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes after local midnight of `at` in `timeZone`. */
export function localMinutes(at: Date, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get("hour") * 60 + get("minute");
}

export function inQuietHours(q: QuietHours, at: Date): boolean {
  const m = localMinutes(at, q.timeZone);
  return q.start < q.end ? m >= q.start && m < q.end : m >= q.start || m < q.end;
}

/**
 * When the window that holds `at` ends: the first instant at which the zone's clock reads `end` (today's, or
 * tomorrow's when the window spans midnight). Found as an instant in the zone, so a daylight-saving change inside
 * the window moves nothing: 22:00–07:00 Europe/Berlin ends at 07:00 local on 25 Oct and on 29 Mar alike (9 and 8 hours
 * after 22:00), and an `end` the clocks skip ends the window when they jump past it. If the jump also passes `start`
 * (the clocks skip the whole time between end and start, as 00:01–00:00 in America/Santiago on 6 Sep 2026), that
 * night has no time outside the window: it goes on to the next end.
 */
export function quietEndsAt(q: QuietHours, at: Date): Date {
  let end = nextEnd(q, at.getTime());
  // Two skipped gaps in a row would need two daylight-saving jumps on consecutive days; the bound only guards the loop.
  for (let i = 0; i < 2 && inQuietHours(q, new Date(end)); i++) end = nextEnd(q, end);
  return new Date(end);
}

function nextEnd(q: QuietHours, at: number): number {
  const wall = wallClockOf(at, q.timeZone);
  const midnight = Math.floor(wall / DAY_MS) * DAY_MS;
  const minutes = Math.floor((wall - midnight) / 60_000);
  const endWall = midnight + q.end * 60_000 + (q.end > minutes ? 0 : DAY_MS);
  return instantOfWallClock(endWall, q.timeZone, at);
}

/** `22:00–07:00 Europe/Berlin`. */
export function quietWords(q: QuietHours): string {
  const hhmm = (n: number) => `${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}`;
  return `${hhmm(q.start)}–${hhmm(q.end)} ${q.timeZone}`;
}
