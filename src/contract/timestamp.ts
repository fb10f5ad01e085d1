// occurred_at must be unambiguous UTC, so offsets and calendar-impossible dates are refused here.

const UTC_ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?Z$/;

/** The pattern that the generated JSON Schema carries; the calendar check is only in {@link isUtcTimestamp}. */
export const UTC_TIMESTAMP_PATTERN = UTC_ISO.source;

export function isUtcTimestamp(value: string): boolean {
  const m = UTC_ISO.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `now` as the contract writes it: UTC, milliseconds, `Z`. */
export function formatUtcTimestamp(now: Date): string {
  return now.toISOString();
}
