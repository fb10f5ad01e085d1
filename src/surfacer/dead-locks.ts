// Since a claim holds the owner's lock (issue 24 M7), a surfacer killed between taking that lock and removing it
// leaves a lock with a dead holder behind, often beside no summary at all. An emit would break it when it next
// comes; until then it sits in the workspace. So a once run starts by removing the locks beside no waiting summary
// that the owner's own rules call stale: exactly what the next emit would do, no sooner (a lock younger than a
// second is always held, and another host's lock only once it is 30 s old, since its pid cannot be asked).
import { join } from "node:path";
import { judgeLock } from "../fs/lock-holder.js";
import { breakStaleLock } from "../fs/lock.js";
import type { WorkspaceScan } from "./scan.js";
import { OWNER_LOCK_STALE_MS } from "./settings.js";

/** The lock paths removed; a lock that is held, gone, or cannot be removed is left as it is. */
export async function removeDeadLocks(scan: WorkspaceScan, now: number): Promise<string[]> {
  const waiting = new Set(scan.summaries.map((s) => s.name));
  const removed: string[] = [];
  for (const name of scan.locks.keys()) {
    if (waiting.has(name)) continue; // beside a waiting summary: the claim judged it already
    const lockPath = join(scan.workspace, `${name}.lock`);
    try {
      const verdict = await judgeLock(lockPath, OWNER_LOCK_STALE_MS, now);
      if (verdict.kind !== "stale") continue;
      await breakStaleLock(lockPath, verdict.stats, verdict.why);
      removed.push(lockPath);
    } catch {
      // A link or folder at the name, or a lock of another user's: the emit that meets it says so.
    }
  }
  return removed;
}
