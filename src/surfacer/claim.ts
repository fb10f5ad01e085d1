// Claim-by-rename: the one atomic step that decides which surfacer handles a file. A rename either moves the
// entry to our unique name or fails with ENOENT because someone else moved it first; there is no third case.
import { link, lstat, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { fitSummary, mergeSummaries, readSummaryFile, type SkipSummary } from "../contract/index.js";
import { isSkipSummaryError } from "../contract/errors.js";
import { withFileLock } from "../fs/lock.js";
import { tryFileLock } from "../fs/try-lock.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { claimName, sentName, type ClaimOwner } from "./claim-name.js";
import type { WaitingEntry } from "./scan.js";
import { OWNER_LOCK_STALE_MS } from "./settings.js";

/** How long putting a claim back waits for an owner mid-merge: a merge takes milliseconds, a hook has seconds. */
const RETURN_LOCK_WAIT_MS = 2_000;

/** Ours (`path`), another surfacer's (`lost`), or left where it is because its owner is merging into it right now. */
export type Claim = { readonly kind: "claimed"; readonly path: string } | { readonly kind: "lost" } | { readonly kind: "owner-writing" };

/**
 * Renames `entry.source` to a fresh claim of ours. A waiting summary is renamed while we hold its owner's lock
 * (`<summary>.lock`, taken in one try, never waited for): an owner holds that lock from its read to its rewrite, so
 * holding it ourselves means no owner has read the file and is about to write it back with the same skips in it
 * (issue 24 M7: they were sent from our claim and again from the owner's merge). Held by a live owner: the file is
 * left, and the lock's removal (or the owner's rewrite) brings it back.
 */
export async function claimEntry(entry: WaitingEntry, owner: ClaimOwner, now: number): Promise<Claim> {
  // A dead surfacer's `.sent` record stays a `.sent` record under our name: its notice already went out.
  const fresh = claimName(entry.name, owner, now);
  const target = join(entry.workspace, entry.claim?.state === "sent" ? sentName(fresh) : fresh);
  // A dead surfacer's claim: no owner reads or writes a claim name, so its lock has no say.
  if (entry.claim !== undefined) return moveTo(entry.source, target);
  try {
    for (let look = 0; ; look += 1) {
      const tried = await tryFileLock(`${entry.path}.lock`, () => moveTo(entry.source, target), { staleMs: OWNER_LOCK_STALE_MS });
      if (tried.took) return tried.value;
      // Another surfacer holds the lock for the microseconds of its own claim, and then the file is gone: that is
      // losing the race, as a failed rename is, not an owner mid-merge (four surfacers over one folder reported
      // hundreds of files "left" and exited 1). An owner rewrites the file in place, so it never vanishes under one.
      if (!(await exists(entry.source))) return { kind: "lost" };
      if (look === HELD_LOOKS) return { kind: "owner-writing" };
      await sleep(HELD_LOOK_MS);
    }
  } catch (error) {
    if (noOwnerCanHold(error)) return moveTo(entry.source, target);
    throw systemCause(error);
  }
}

/** Looks at a held lock before calling it an owner's: a surfacer's claim holds it far shorter than this (20 ms). */
const HELD_LOOKS = 10;
const HELD_LOOK_MS = 2;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function moveTo(source: string, target: string): Promise<Claim> {
  try {
    await rename(source, target);
    return { kind: "claimed", path: target };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "lost" };
    throw error;
  }
}

// A link or folder at the lock name, or a stale lock we may not remove: every emit refuses to start (owner.write_failed),
// so no owner is between a read and a write, and waiting would only keep the notice from going out.
function noOwnerCanHold(error: unknown): boolean {
  return isSkipSummaryError(error, "owner.write_failed") && (error.data.kind === "not-regular-file" || error.data.kind === "lock-stale");
}

// The lock's own refusal (EACCES, EROFS, ENOSPC) is worded for an emit; the surfacer words the file system's error itself.
function systemCause(error: unknown): unknown {
  return isSkipSummaryError(error, "owner.write_failed") && error.cause !== undefined ? error.cause : error;
}

export type ReturnResult = { readonly returned: true; readonly merged: boolean } | { readonly returned: false; readonly at: string };

/**
 * Puts a claimed file back under its summary name, for a later attempt. It never overwrites: `link` fails with
 * EEXIST when the owner wrote a new summary meanwhile, and then the two are merged, as emit would. All of it runs
 * under the owner's lock: an owner that found no file is writing a fresh one, and its rename would replace a claim
 * put back under the name meanwhile, losing the claim's skips. A file that cannot be merged (another version, not
 * valid), or an owner that holds the lock past the wait, leaves it under the claim name, where a takeover finds it.
 */
export async function returnClaim(claimPath: string, summaryPath: string, ours: SkipSummary | undefined): Promise<ReturnResult> {
  try {
    return await withFileLock(`${summaryPath}.lock`, () => putBack(claimPath, summaryPath, ours), { timeoutMs: RETURN_LOCK_WAIT_MS, staleMs: OWNER_LOCK_STALE_MS });
  } catch (error) {
    if (noOwnerCanHold(error)) return putBack(claimPath, summaryPath, ours);
    if (isSkipSummaryError(error, "owner.write_failed") && error.data.kind === "lock-timeout") return { returned: false, at: claimPath };
    throw systemCause(error);
  }
}

async function putBack(claimPath: string, summaryPath: string, ours: SkipSummary | undefined): Promise<ReturnResult> {
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

// Called holding the owner's lock.
async function mergeBack(claimPath: string, summaryPath: string, ours: SkipSummary | undefined): Promise<ReturnResult> {
  if (ours === undefined) return { returned: false, at: claimPath };
  const waiting = await readSummaryFile(summaryPath, { expectedSkill: ours.skill });
  if (waiting.kind !== "valid") return { returned: false, at: claimPath };
  await writeFileAtomically(summaryPath, fitSummary(mergeSummaries(ours, waiting.summary)).text);
  await unlink(claimPath);
  return { returned: true, merged: true };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
