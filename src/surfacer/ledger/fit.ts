// A skill's ledger file stays within the reader's limit (FILE_LIMITS.ledger) by design, whatever the skill does: a
// skill whose reason text varies every night would otherwise add an entry per reason until no reader takes the file
// (and every surface that counts the skill fails). The writer keeps a bounded set of reason keys, the most recently
// seen; the others are folded into one `other` tally, so every skip is still counted. Each entry is bounded too
// (entry.ts keeps the reason and the step short, and the items and step of the last notice as digests), and so are
// the remembered delivery ids, the silence tallies and the journal marks, so folding entries always makes it fit.
import { byteLength, FILE_LIMITS } from "../../fs/size-contract.js";
import type { LedgerEntry, SkillLedger } from "./entry.js";

/** Reason keys with an entry of their own, per skill; the rest are folded into `other`. */
export const MAX_REASON_KEYS = 50;
/** Silence tallies per skill (for the "while muted" message); the oldest go first, and `muted_cut_at` says so. */
export const MAX_MUTED_TALLIES = 16;

/** The file's text: one line of JSON. */
export function ledgerText(ledger: SkillLedger): string {
  return `${JSON.stringify(ledger)}\n`;
}

/**
 * Folds the least recently seen entries into `other` until at most {@link MAX_REASON_KEYS} remain and the file fits
 * the limit, drops the oldest silence tallies past {@link MAX_MUTED_TALLIES}, and returns the text to write.
 * The entry seen last always keeps its own.
 */
export function fitLedger(ledger: SkillLedger, limit: number = FILE_LIMITS.ledger): string {
  const byAge = Object.entries(ledger.entries).sort(olderFirst);
  let next = 0;
  while (byAge.length - next > MAX_REASON_KEYS) foldIntoOther(ledger, byAge[next++]!);
  const tallies = Object.entries(ledger.muted_by).sort(([, a], [, b]) => (a.last_at < b.last_at ? -1 : a.last_at > b.last_at ? 1 : 0));
  for (const [id, t] of tallies.slice(0, Math.max(0, tallies.length - MAX_MUTED_TALLIES))) {
    delete ledger.muted_by[id];
    if (ledger.muted_cut_at === undefined || t.last_at > ledger.muted_cut_at) ledger.muted_cut_at = t.last_at;
  }
  let text = ledgerText(ledger);
  while (byteLength(text) > limit && byAge.length - next > 1) {
    // Fold about as many entries as the excess needs at once, at least one: a refit per entry would be quadratic.
    const average = byteLength(text) / Math.max(1, byAge.length - next);
    const many = Math.max(1, Math.min(byAge.length - next - 1, Math.ceil((byteLength(text) - limit) / average)));
    for (let i = 0; i < many; i += 1) foldIntoOther(ledger, byAge[next++]!);
    text = ledgerText(ledger);
  }
  return text;
}

function olderFirst([ka, a]: [string, LedgerEntry], [kb, b]: [string, LedgerEntry]): number {
  if (a.last_seen !== b.last_seen) return a.last_seen < b.last_seen ? -1 : 1;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function foldIntoOther(ledger: SkillLedger, [key, e]: [string, LedgerEntry]): void {
  const o = (ledger.other ??= { keys: 0, count: 0, sent: 0, folded: 0, muted: 0, unreported: 0, first_seen: e.first_seen, last_seen: e.last_seen });
  o.keys += 1;
  o.count += e.count;
  o.sent += e.sent;
  o.folded += e.folded;
  o.muted += e.muted;
  o.unreported += e.unreported;
  if (e.first_seen < o.first_seen) o.first_seen = e.first_seen;
  if (e.last_seen > o.last_seen) o.last_seen = e.last_seen;
  delete ledger.entries[key];
}
