// The words a notice gains from the ledger, computed before the send from what the ledger will hold after it:
// the history line and the folds it reports. The counts are written under the lock only after the send.
import { reasonKeyOf, type SkipSummary } from "../../contract/index.js";
import { applyOccurrence, emptyLedger, unreportedFolds, type Disposition, type Occurrence, type SkillLedger } from "../ledger/entry.js";
import { foldedWords, historyWords } from "../ledger/words.js";
import { readSkillLedger } from "../ledger/store.js";
import type { Batch } from "../ledger/batches.js";
import type { BookkeepingOptions } from "../ledger/set-aside.js";

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

/**
 * The skill's ledger: an empty one when its file cannot be read (it is set aside), and when anything else goes
 * wrong reading it (EACCES, EMFILE): the words of a notice are never worth the notice.
 */
export async function ledgerFor(c: Claimed, batches?: readonly Batch[], options: BookkeepingOptions = {}): Promise<SkillLedger> {
  return readSkillLedger(c.workspace, c.summary.skill, batches, options).catch(() => emptyLedger(c.summary.skill));
}

export interface NoticeNotes {
  readonly notes: string[];
  /** The folds per reason key this notice reports; subtracted in the ledger once it was sent. */
  readonly reported: Record<string, number>;
  /** And those of the keys folded into `other`. */
  readonly reportedOther: number;
}

export function notesFor(c: Claimed, ledger: SkillLedger, now: Date, timeZone: string): NoticeNotes {
  const preview = structuredClone(ledger);
  applyOccurrence(preview, occurrenceOf(c, "sent"), now, timeZone);
  const entry = preview.entries[reasonKeyOf(c.summary)];
  const reported = unreportedFolds(ledger);
  const reportedOther = ledger.other?.unreported ?? 0;
  const folded = foldedWords(Object.values(reported).reduce((a, b) => a + b, reportedOther));
  return { notes: [...(entry ? [historyWords(entry, timeZone)] : []), ...(folded ? [folded] : [])], reported, reportedOther };
}
