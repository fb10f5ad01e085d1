// The ledger's upkeep after a surfacer pass: fold the journal into the skill files when due, and prune old entries
// at most once a day. Never on the delivery path, never fatal: a failure is logged and tried again next pass.
import { existsSync } from "node:fs";
import type { Logger } from "../../log/logger.js";
import { compactLedger } from "./compaction.js";
import { ledgerDir } from "./paths.js";
import { pruneLedgers } from "./prune.js";
import { bookkeepingFor } from "./warn.js";

export interface MaintainOptions {
  readonly now: Date;
  readonly maxAgeMs: number;
  readonly log: Logger;
  /** A shutdown: compaction stops between skills, and the pruning pass is left for later. */
  readonly stop?: () => boolean;
}

export async function maintainLedger(workspace: string, o: MaintainOptions): Promise<void> {
  if (!existsSync(ledgerDir(workspace))) return; // nothing counted here yet: nothing to create
  const books = bookkeepingFor(o.log, () => o.now);
  try {
    const c = await compactLedger(workspace, { ...books, now: o.now, maxAgeMs: o.maxAgeMs, stop: o.stop });
    if (c.batches > 0) o.log({ level: "debug", event: "ledger_compacted", workspace, ...c });
    if (o.stop?.()) return;
    const p = await pruneLedgers(workspace, { ...books, now: o.now, maxAgeMs: o.maxAgeMs });
    if (p.pruned.length > 0) o.log({ level: "info", event: "ledger_pruned", workspace, pruned: p.pruned.length, removed: p.removed.length });
  } catch (error) {
    o.log({ level: "warn", event: "ledger_upkeep_failed", workspace, error: (error as Error).message });
  }
}
