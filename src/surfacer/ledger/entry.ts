// What the ledger remembers for one skill in one workspace, and the pure rules that update it. Kept apart from
// the file handling (store.ts) so the rules are tested without disk, and every writer applies the same ones.
import { REASON_MAX_LENGTH } from "../../contract/fields.js";
import { truncate } from "../../contract/truncate.js";
import { nodeCrypto } from "../../lazy/node-crypto.js";
import { daysBetween, dayOf } from "./days.js";

export const LEDGER_VERSION = 1;
/** How many recent delivery ids a skill's file remembers: enough to recognise a summary that was accounted for
 * but not yet deleted when a surfacer died (at most a few per skill), small enough to keep the file small. */
export const APPLIED_IDS_KEPT = 64;
/** Days of per-day counts kept per entry: a streak longer than this reads as "60+ nights". */
export const DAYS_KEPT = 62;
/** A step is kept to this many characters for the words (a step may be any string a summary holds). */
export const STEP_KEPT = 200;

export type Disposition = "sent" | "folded" | "muted";

/** One skill + reason key. Times are ISO strings; `last_day` is the calendar day of `last_seen` in the ledger's zone. */
export interface LedgerEntry {
  reason_key: string;
  /** Every skip seen, whatever happened to its notice. */
  count: number;
  first_seen: string;
  last_seen: string;
  /** The seen time before `last_seen`, for "again after 3 weeks". */
  previous_seen?: string;
  /** Consecutive calendar days with this skip, ending at `last_day` (the latest day seen). */
  streak: number;
  /** The first day of that run, `YYYY-MM-DD`. */
  streak_since: string;
  last_day: string;
  /** Skips seen on `last_day`. */
  today: number;
  /** Skips per calendar day, for the last {@link DAYS_KEPT} days seen: streaks stay right when surfacers count out of order. */
  days: Record<string, number>;
  sent: number;
  folded: number;
  muted: number;
  /** Folded since the last message that went out for this skill (the "+3 repeats" of the next one). */
  unreported: number;
  last_reason: string;
  last_step: string | number;
  last_delivery_id?: string;
  last_sent_at?: string;
}

/**
 * The one shape a notice that went out leaves, for `on_change`: its step and items as fixed-size keys
 * ({@link stepKey}, {@link itemsKey}), so a summary of 64 KiB of items leaves 71 bytes here, not 64 KiB.
 */
export interface SentShape {
  readonly reason_key: string;
  readonly step: string;
  readonly items: string;
  readonly at: string;
}

/**
 * The reason keys that no longer have an entry of their own (a skill whose reason text varies would otherwise grow
 * its file past the reader's limit): their counts, folded together. Still counted, shown by `history` as one row.
 */
export interface OtherTally {
  /** Entries folded in here (a key folded in twice counts twice). */
  keys: number;
  count: number;
  sent: number;
  folded: number;
  muted: number;
  unreported: number;
  first_seen: string;
  last_seen: string;
}

export interface MutedTally {
  count: number;
  last_reason: string;
  last_at: string;
}

/** The file `.skip-summary-ledger/<skill>.json`. */
export interface SkillLedger {
  version: number;
  skill: string;
  entries: Record<string, LedgerEntry>;
  /** Delivery ids already accounted for, newest last. */
  applied: string[];
  last_sent?: SentShape;
  /** Skips muted by each silence, for the message when it ends. */
  muted_by: Record<string, MutedTally>;
  /**
   * Journal batches (`_journal/<name>.jsonl`) already folded into this file, with when: a batch folded in twice (a
   * crash before its delete, two surfacers compacting at once) changes nothing the second time. Kept a while after
   * the batch is deleted, for readers that listed it just before.
   */
  folded_batches?: Record<string, string>;
  /** Reason keys folded together to keep the file within its limit (fit.ts). */
  other?: OtherTally;
  /**
   * The newest `last_at` of a silence tally dropped to keep the file within its limit (fit.ts): a silence with no
   * tally that began before it may have muted skips nobody counts any more, so its message cannot say "nothing".
   */
  muted_cut_at?: string;
}

export interface Occurrence {
  readonly reasonKey: string;
  readonly reason: string;
  readonly step: string | number;
  readonly items: readonly string[];
  /** When the skip happened (the summary's `occurred_at`): nights are counted from it. */
  readonly occurredAt: Date;
  readonly deliveryId: string;
  readonly disposition: Disposition;
  /** For `sent`: the notice's own delivery id (a digest's), and the folds per key it reported. */
  readonly messageId?: string;
  readonly reported?: Readonly<Record<string, number>>;
  /** For `sent`: the folds of keys without an entry of their own (`other`) that it reported. */
  readonly reportedOther?: number;
  /** The step and items as {@link stepKey} and {@link itemsKey}; computed from `step` and `items` when absent. */
  readonly stepKey?: string;
  readonly itemsKey?: string;
  /** For `muted`: the silence that muted it. */
  readonly silenceId?: string;
}

export function emptyLedger(skill: string): SkillLedger {
  return { version: LEDGER_VERSION, skill, entries: {}, applied: [], muted_by: {} };
}

export function isApplied(ledger: SkillLedger, deliveryId: string): boolean {
  return ledger.applied.includes(deliveryId);
}

/** Counts one skip; a delivery id already counted changes nothing (a retry after a crash). Returns whether it counted. */
export function applyOccurrence(ledger: SkillLedger, o: Occurrence, now: Date, timeZone: string): boolean {
  if (isApplied(ledger, o.deliveryId)) return false;
  const seenIso = o.occurredAt.toISOString();
  const day = dayOf(o.occurredAt, timeZone);
  const old = ledger.entries[o.reasonKey];
  const e: LedgerEntry = old ?? {
    reason_key: o.reasonKey, count: 0, first_seen: seenIso, last_seen: seenIso, streak: 1, streak_since: day, last_day: day,
    today: 0, days: {}, sent: 0, folded: 0, muted: 0, unreported: 0, last_reason: keptReason(o.reason), last_step: keptStep(o.step),
  };
  e.days ??= {};
  e.days[day] = (e.days[day] ?? 0) + 1;
  const known = Object.keys(e.days).sort();
  for (const old of known.slice(0, Math.max(0, known.length - DAYS_KEPT))) delete e.days[old];
  // The streak is read from the days, not from arrival order: two surfacers may count two nights the wrong way round.
  const days = Object.keys(e.days).sort();
  let start = days.length - 1;
  while (start > 0 && daysBetween(days[start - 1]!, days[start]!) === 1) start -= 1;
  e.last_day = days.at(-1)!;
  e.streak = days.length - start;
  e.streak_since = days[start]!;
  e.today = e.days[e.last_day]!;
  // What is "last" moves only forward, for the same reason: a digest's journal batch is applied after the skill
  // file (withBatches), so an older send can be counted after a newer one, and must not become "the last message".
  const newest = old === undefined || seenIso >= e.last_seen;
  if (old !== undefined && newest) {
    e.previous_seen = e.last_seen;
    e.last_seen = seenIso;
  }
  if (seenIso < e.first_seen) e.first_seen = seenIso;
  e.count += 1;
  if (newest) {
    e.last_reason = keptReason(o.reason);
    e.last_step = keptStep(o.step);
  }
  e[o.disposition] += 1;
  if (o.disposition === "folded") e.unreported += 1;
  ledger.entries[o.reasonKey] = e;
  if (o.disposition === "sent") {
    for (const [key, n] of Object.entries(o.reported ?? {})) {
      const r = ledger.entries[key];
      if (r) r.unreported = Math.max(0, r.unreported - n);
    }
    if (o.reportedOther && ledger.other) ledger.other.unreported = Math.max(0, ledger.other.unreported - o.reportedOther);
    const at = now.toISOString();
    if (e.last_sent_at === undefined || at >= e.last_sent_at) {
      e.last_delivery_id = o.messageId ?? o.deliveryId;
      e.last_sent_at = at;
    }
    if (ledger.last_sent === undefined || at >= ledger.last_sent.at) {
      ledger.last_sent = { reason_key: o.reasonKey, step: o.stepKey ?? stepKey(o.step), items: o.itemsKey ?? itemsKey(o.items), at };
    }
  }
  if (o.disposition === "muted" && o.silenceId !== undefined) {
    const t = (ledger.muted_by[o.silenceId] ??= { count: 0, last_reason: keptReason(o.reason), last_at: seenIso });
    t.count += 1;
    t.last_reason = keptReason(o.reason);
    t.last_at = seenIso;
  }
  ledger.applied.push(o.deliveryId);
  if (ledger.applied.length > APPLIED_IDS_KEPT) ledger.applied.splice(0, ledger.applied.length - APPLIED_IDS_KEPT);
  return true;
}

/** The set of items as one comparable key of fixed size (order does not matter to the owner). */
export function itemsKey(items: readonly string[]): string {
  return `sha256:${nodeCrypto().createHash("sha256").update(legacyItemsKey(items)).digest("hex")}`;
}

/** The key an older ledger kept in `last_sent.items`: the sorted items themselves, as JSON. */
export function legacyItemsKey(items: readonly string[]): string {
  return JSON.stringify([...items].sort());
}

/** The step as a comparable key: itself when short, else a digest of it. */
export function stepKey(step: string | number): string {
  const text = String(step);
  return text.length <= STEP_KEPT ? text : `sha256:${nodeCrypto().createHash("sha256").update(text).digest("hex")}`;
}

/** The step as the words show it, within {@link STEP_KEPT} characters. */
export function keptStep(step: string | number): string | number {
  return typeof step === "number" ? step : truncate(step, STEP_KEPT);
}

function keptReason(reason: string): string {
  return truncate(reason, REASON_MAX_LENGTH);
}

/** Drops entries and silence tallies not seen for `maxAgeMs`; returns whether anything was dropped. */
export function pruneLedger(ledger: SkillLedger, now: Date, maxAgeMs: number): boolean {
  const cutoff = new Date(now.getTime() - maxAgeMs).toISOString();
  let dropped = false;
  for (const [key, e] of Object.entries(ledger.entries)) {
    if (e.last_seen < cutoff) {
      delete ledger.entries[key];
      dropped = true;
    }
  }
  for (const [id, t] of Object.entries(ledger.muted_by)) {
    if (t.last_at < cutoff) {
      delete ledger.muted_by[id];
      dropped = true;
    }
  }
  if (ledger.other && ledger.other.last_seen < cutoff) {
    delete ledger.other;
    dropped = true;
  }
  return dropped;
}

/** Folds still to be reported for this skill, per key. */
export function unreportedFolds(ledger: SkillLedger): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, e] of Object.entries(ledger.entries)) if (e.unreported > 0) out[key] = e.unreported;
  return out;
}
