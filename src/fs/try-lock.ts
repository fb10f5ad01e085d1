// The surfacer claims a waiting summary while it holds the owner's lock, so that no owner is between its read and
// its rewrite when the file moves (issue 24 M7): an owner either merged before the claim, or finds no file after it
// and starts a fresh summary. A surfacer must never wait behind an owner (the after-skill hook has a budget, the
// watcher has other files to send), so this takes the lock in one try: it is ours, or someone holds it and the file
// is left for the next look. A lock the owner's own rule judges stale (a dead holder, or older than the stale age)
// is broken as an emit would break it; an owner that stalled past that age finds out before its rename (emit.ts).
//
// The lock is created in place (O_EXCL) with its record written after, not linked from a complete candidate: the
// protocol's way on a file system without hard links (docs/owner.md, "The lock", 3). An owner that meets it before
// its record is in judges it held (it is not a second old); a surfacer killed in between leaves a lock without a
// record, which is stale once a second old. The calls are synchronous, unlike the rest of the surfacer: a claim is
// on every summary's path, and through fs/promises the same calls cost half again as much CPU per summary
// (docs/surfacer.md, "Racing the owner's merge"). None of them fsyncs, so none holds the event loop for long on a
// local disk.
import { closeSync, constants, fstatSync, lstatSync, openSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { judgeLock, lockError, lockRecordText } from "./lock-holder.js";
import { breakStaleLock, heldLock, LOCK_STALE_MS, type HeldLock } from "./lock.js";

export type TryLockResult<T> = { readonly took: true; readonly value: T } | { readonly took: false };

/**
 * Runs `fn` holding `lockPath` when it can be had at once; `{ took: false }` when a live holder has it. Throws what
 * the lock itself throws: `owner.write_failed` (`not-regular-file` for a link or folder at the name, `unwritable`).
 */
export async function tryFileLock<T>(lockPath: string, fn: (lock: HeldLock) => Promise<T>, options: { readonly staleMs?: number } = {}): Promise<TryLockResult<T>> {
  const held = await placeOnce(lockPath, options.staleMs ?? LOCK_STALE_MS);
  if (held === undefined) return { took: false };
  try {
    return { took: true, value: await fn(heldLock(lockPath, held)) };
  } finally {
    release(lockPath, held);
  }
}

async function placeOnce(lockPath: string, staleMs: number): Promise<Stats | undefined> {
  // Three tries: a holder that left (gone) or a stale lock broken is worth another try at once, nothing more.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const placed = place(lockPath);
    if (placed) return placed;
    const verdict = await judgeLock(lockPath, staleMs, Date.now());
    if (verdict.kind === "held") return undefined;
    if (verdict.kind === "stale") await breakStaleLock(lockPath, verdict.stats, verdict.why);
  }
  return undefined;
}

function place(lockPath: string): Stats | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw lockError(lockPath, "create", error);
  }
  try {
    writeSync(fd, lockRecordText(Date.now()));
    return fstatSync(fd);
  } catch (error) {
    try {
      unlinkSync(lockPath);
    } catch {
      // Already gone.
    }
    throw lockError(lockPath, "create", error);
  } finally {
    closeSync(fd);
  }
}

// Only our own lock is removed: if it was taken over as stale meanwhile, the name now belongs to someone else.
function release(lockPath: string, held: Stats): void {
  try {
    const now = lstatSync(lockPath);
    if (now.ino === held.ino && now.dev === held.dev) unlinkSync(lockPath);
  } catch {
    // Already gone: nothing to release.
  }
}
