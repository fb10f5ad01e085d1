// The one line a notice gains from the ledger. The owner reads it on a phone, so it says what matters in words:
// "5th night in a row (since 18 Nov)", "first time", "again after 3 weeks".
import { daysBetween, dayOf, gapWords, ordinal, shortDate } from "./days.js";
import type { LedgerEntry } from "./entry.js";

/** What the ledger knows about this skip, counting the one being sent. */
export function historyWords(e: LedgerEntry, timeZone: string): string {
  if (e.count <= 1) return "first time";
  const parts: string[] = [];
  const gap = e.previous_seen === undefined ? 0 : daysBetween(dayOf(new Date(e.previous_seen), timeZone), e.last_day);
  if (e.streak >= 2) parts.push(`${ordinal(e.streak)} night in a row (since ${shortDate(new Date(`${e.streak_since}T12:00:00Z`), "UTC")})`);
  else if (gap >= 2) parts.push(`again after ${gapWords(gap)} (${ordinal(e.count)} time since ${shortDate(new Date(e.first_seen), timeZone)})`);
  if (e.today >= 2) parts.push(`${ordinal(e.today)} time today`);
  if (parts.length === 0) parts.push(`${ordinal(e.count)} time since ${shortDate(new Date(e.first_seen), timeZone)}`);
  return parts.join("; ");
}

/** `+3 repeats since the last message`, or nothing when no notice was folded. */
export function foldedWords(folded: number): string | undefined {
  if (folded <= 0) return undefined;
  return `+${folded} repeat${folded === 1 ? "" : "s"} since the last message`;
}
