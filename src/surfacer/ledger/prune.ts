// The ledger is bounded: entries not seen for `ledger_max_age` go, even for a skill that never comes back (whose
// file is otherwise never written again). A pass reads every skill file of the workspace, so it runs at most once
// per PRUNE_EVERY_MS per workspace, whichever surfacer gets there first: the time of the last pass is kept in
// `_pruned` beside the ledger and taken before the pass, so racing surfacers do not all walk the folder.
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { isValidSkillId } from "../../contract/ids.js";
import { withFileLock } from "../../fs/lock.js";
import { readOwnRecord } from "../../fs/read-bounded.js";
import { DEFAULT_LEDGER_MAX_AGE_MS } from "../policy/settings.js";
import { pruneLedger } from "./entry.js";
import { readLedgerFile } from "./ledger-file.js";
import { ledgerDir } from "./paths.js";
import type { BookkeepingOptions } from "./set-aside.js";
import { inLedgerDir, updateSkillLedger } from "./store.js";

export const PRUNED_FILE = "_pruned";
/** At most one pruning pass per workspace per day. */
export const PRUNE_EVERY_MS = 86_400_000;

export interface PruneOptions extends BookkeepingOptions {
  readonly now: Date;
  readonly maxAgeMs?: number | undefined;
}

export interface PruneResult {
  /** False when the last pass was less than PRUNE_EVERY_MS ago. */
  readonly ran: boolean;
  /** Skill files that lost entries, and those that were left empty and removed. */
  readonly pruned: readonly string[];
  readonly removed: readonly string[];
}

export async function pruneLedgers(workspace: string, options: PruneOptions): Promise<PruneResult> {
  const dir = ledgerDir(workspace);
  const last = Date.parse((await readOwnRecord(join(dir, PRUNED_FILE), 100).then((b) => b.toString("utf8"), () => "")).trim());
  if (Number.isFinite(last) && options.now.getTime() - last < PRUNE_EVERY_MS && last <= options.now.getTime()) return { ran: false, pruned: [], removed: [] };
  await inLedgerDir(workspace, (write) => write(PRUNED_FILE, `${options.now.toISOString()}\n`), options);
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_LEDGER_MAX_AGE_MS;
  const pruned: string[] = [];
  const removed: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!name.endsWith(".json") || name.startsWith("_")) continue;
    const skill = name.slice(0, -".json".length);
    if (!isValidSkillId(skill)) continue;
    const read = await readLedgerFile(join(dir, name), skill);
    // Gone meanwhile, or unreadable: the next write of that skill sets it aside.
    if (read.kind !== "ok") continue;
    // Read without the lock to decide; prune under it (the write reads the file again).
    if (!pruneLedger(read.ledger, options.now, maxAgeMs)) continue;
    const { ledger: after } = await updateSkillLedger(workspace, skill, () => undefined, { ...options, now: options.now, maxAgeMs });
    pruned.push(skill);
    if (Object.keys(after.entries).length === 0 && Object.keys(after.muted_by).length === 0 && after.other === undefined) {
      // Nothing left to remember: the file goes, under the lock, if it is still empty then.
      const path = join(dir, name);
      await withFileLock(`${path}.lock`, async () => {
        const now = await readLedgerFile(path, skill);
        if (now.kind === "ok" && Object.keys(now.ledger.entries).length === 0 && Object.keys(now.ledger.muted_by).length === 0 && now.ledger.other === undefined) {
          await unlink(path);
          removed.push(skill);
        }
      });
    }
  }
  return { ran: true, pruned, removed };
}
