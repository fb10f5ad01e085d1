// Claim-by-rename: the one atomic step that decides which surfacer handles a file. A rename either moves the
// entry to our unique name or fails with ENOENT because someone else moved it first; there is no third case.
import { link, lstat, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { fitSummary, mergeSummaries, readSummaryFile, type SkipSummary } from "../contract/index.js";
import { claimName, sentName, type ClaimOwner } from "./claim-name.js";
import type { WaitingEntry } from "./scan.js";
import { claimCoveredByOwner, ownerWriting } from "./owner-race.js";

/**
 * Renames `entry.source` to a fresh claim of ours; `undefined` when another surfacer won, or when the owner is
 * writing the summary right now (its `<summary>.lock` is there: the claim waits for the lock's removal).
 */
export async function claimEntry(entry: WaitingEntry, owner: ClaimOwner, now: number): Promise<string | undefined> {
  // A dead surfacer's `.sent` record stays a `.sent` record under our name: its notice already went out.
  const fresh = claimName(entry.name, owner, now);
  const target = join(entry.workspace, entry.claim?.state === "sent" ? sentName(fresh) : fresh);
  // The scan saw no owner lock, but a watcher claims after the sends queued before it: an owner may have taken the
  // lock and read the summary since. Claimed now, the skip would be sent from this file and again from the merge
  // the owner writes. So the lock is checked again here, right before the rename; what remains is the time between
  // these two calls, closed by a second look right after the rename (owner-race.ts).
  if (entry.claim === undefined && (await ownerWriting(entry.path, now))) return undefined;
  try {
    await rename(entry.source, target);
    if (entry.claim === undefined && (await ownerWriting(entry.path, now)) && (await claimCoveredByOwner(target, entry.path, entry.skill))) return undefined;
    return target;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export type ReturnResult = { readonly returned: true; readonly merged: boolean } | { readonly returned: false; readonly at: string };

/**
 * Puts a claimed file back under its summary name, for a later attempt. It never overwrites: `link` fails with
 * EEXIST when the owner wrote a new summary meanwhile, and then the two are merged under the owner's lock, as
 * emit would. A file that cannot be merged (another version, not valid) stays under the claim name, where the
 * next run's takeover finds it again.
 */
export async function returnClaim(claimPath: string, summaryPath: string, ours: SkipSummary | undefined): Promise<ReturnResult> {
  try {
    await link(claimPath, summaryPath);
    await unlink(claimPath);
    return { returned: true, merged: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return mergeBack(claimPath, summaryPath, ours);
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw error;
  }
  // Not hard-linkable (a directory, a file system without links): rename, when the name is still free.
  if (await exists(summaryPath)) return { returned: false, at: claimPath };
  await rename(claimPath, summaryPath);
  return { returned: true, merged: false };
}

async function mergeBack(claimPath: string, summaryPath: string, ours: SkipSummary | undefined): Promise<ReturnResult> {
  if (ours === undefined) return { returned: false, at: claimPath };
  // Loaded only here: the lock and the atomic writer are not needed on the common path, and start-up stays lean.
  const [{ withFileLock }, { writeFileAtomically }] = await Promise.all([import("../fs/lock.js"), import("../fs/atomic-write.js")]);
  return withFileLock(`${summaryPath}.lock`, async () => {
    const waiting = await readSummaryFile(summaryPath, { expectedSkill: ours.skill });
    if (waiting.kind !== "valid") return { returned: false, at: claimPath } as const;
    await writeFileAtomically(summaryPath, fitSummary(mergeSummaries(ours, waiting.summary)).text);
    await unlink(claimPath);
    return { returned: true, merged: true } as const;
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

