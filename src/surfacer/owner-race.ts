// A skip must reach the owner once. The owner holds `<summary>.lock` while it reads, merges and rewrites a waiting
// summary; a surfacer that claims the file in between has the old skip in its claim while the owner writes a merge
// that carries it too, and both would be sent, under two delivery ids a receiver cannot match. The claim therefore
// checks the lock twice: right before its rename (claim.ts), and right after it. A lock seen after the rename means
// an owner may have read the file before it moved: the surfacer then waits for that owner by taking the same lock,
// and if the summary the owner wrote already holds everything the claim holds, the claim is dropped (the owner's
// merge carries it, and is sent next). Otherwise the claim is sent as usual.
import { lstat, unlink } from "node:fs/promises";
import { mergeSummaries, readSummaryFile, type SkipSummary } from "../contract/index.js";
import { OWNER_LOCK_STALE_MS } from "./settings.js";

/** How long a claim waits for an owner mid-merge (a merge takes milliseconds). */
const OWNER_WAIT_MS = 5_000;

/** A lock younger than the owner's stale age: an owner is reading, merging or rewriting the summary. */
export async function ownerWriting(summaryPath: string, now: number): Promise<boolean> {
  try {
    return now - (await lstat(`${summaryPath}.lock`)).mtimeMs <= OWNER_LOCK_STALE_MS;
  } catch {
    return false;
  }
}

/**
 * After a claim that raced an owner's lock: `true` when the owner's rewrite already carries everything in the claim,
 * which is then removed. Any doubt (a lock not taken in time, a file that does not read as valid) keeps the claim:
 * a skip sent twice is better than one lost.
 */
export async function claimCoveredByOwner(claimPath: string, summaryPath: string, skill: string): Promise<boolean> {
  const { withFileLock } = await import("../fs/lock.js");
  try {
    return await withFileLock(
      `${summaryPath}.lock`,
      async () => {
        const [claimed, waiting] = await Promise.all([readSummaryFile(claimPath, { expectedSkill: skill }), readSummaryFile(summaryPath, { expectedSkill: skill })]);
        if (claimed.kind !== "valid" || waiting.kind !== "valid" || !covers(waiting.summary, claimed.summary)) return false;
        await unlink(claimPath);
        return true;
      },
      { timeoutMs: OWNER_WAIT_MS },
    );
  } catch {
    return false;
  }
}

// Merging the claim into the waiting summary changes nothing: the owner's merge already holds its items, steps,
// reasons and links. (A cut-items count adds up on every merge, so it is left out of the comparison.)
function covers(waiting: SkipSummary, claimed: SkipSummary): boolean {
  const text = (s: SkipSummary) => JSON.stringify({ ...s, items_omitted: undefined });
  return text(mergeSummaries(waiting, claimed)) === text(mergeSummaries(waiting, waiting));
}
