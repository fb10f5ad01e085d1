// The words a notice gains from the ledger, computed before the send from what the ledger will hold after it:
// the history line and the folds it reports. The counts are written under the lock only after the send.
import { reasonKeyOf, type SkipSummary } from "../../contract/index.js";
import { applyOccurrence, emptyLedger, unreportedFolds, type Disposition, type Occurrence, type SkillLedger } from "../ledger/entry.js";
import { foldedWords, historyWords } from "../ledger/words.js";
import { readSkillLedger } from "../ledger/store.js";
import type { Batch } from "../ledger/batches.js";

export interface Claimed {
  readonly workspace: string;
  readonly path: string;
  readonly claimPath: string;
  readonly summary: SkipSummary;
  readonly deliveryId: string;
}

export function occurrenceOf(c: Claimed, disposition: Disposition, extra: Partial<Occurrence> = {}): Occurrence {
  return {
    reasonKey: reasonKeyOf(c.summary),
    reason: c.summary.reason,
    step: c.summary.step,
    items: c.summary.items,
    occurredAt: new Date(c.summary.occurred_at),
    deliveryId: c.deliveryId,
    disposition,
    ...extra,
  };
}

/** The skill's ledger, or an empty one when it cannot be read (the write that follows sets it aside). */
export async function ledgerFor(c: Claimed, batches?: readonly Batch[]): Promise<SkillLedger> {
  return readSkillLedger(c.workspace, c.summary.skill, batches).catch(() => emptyLedger(c.summary.skill));
}

export interface NoticeNotes {
  readonly notes: string[];
  /** The folds per reason key this notice reports; subtracted in the ledger once it was sent. */
  readonly reported: Record<string, number>;
}

export function notesFor(c: Claimed, ledger: SkillLedger, now: Date, timeZone: string): NoticeNotes {
  const preview = structuredClone(ledger);
  applyOccurrence(preview, occurrenceOf(c, "sent"), now, timeZone);
  const entry = preview.entries[reasonKeyOf(c.summary)];
  const reported = unreportedFolds(ledger);
  const folded = foldedWords(Object.values(reported).reduce((a, b) => a + b, 0));
  return { notes: [...(entry ? [historyWords(entry, timeZone)] : []), ...(folded ? [folded] : [])], reported };
}
