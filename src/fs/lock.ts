// Two owners emitting for one skill at once must not lose a skip: the read-merge-write runs under this lock.
// The protocol is specified in docs/owner.md ("The lock"), and python/skip_summary.py follows the same text, so a
// Python and a Node emit racing on one skill exclude each other. Its three promises:
// - the lock appears with its record already in it (written to a temp file, then link()ed into place), so a kill
//   or a full disk can never leave an empty lock behind;
// - one deadline, whatever sits at the lock name: a link, a folder or a stale lock we cannot delete ends the wait
//   with an error at once, and a live holder ends it at the deadline;
// - waiting sleeps (1 ms doubling to 50 ms, jittered), it never spins.
import { constants, type Stats } from "node:fs";
import { link, lstat, open, unlink, type FileHandle } from "node:fs/promises";
import { judgeLock, lockError, lockRecordText } from "./lock-holder.js";
import { writeFailed } from "./errors.js";

export const LOCK_TIMEOUT_MS = 10_000;
export const LOCK_STALE_MS = 30_000;
const MAX_DELAY_MS = 50;
// Not node:timers/promises: one module less to load at every emit, for a wait that only contention reaches.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface LockOptions {
  /** Give up after this long. @default 10000 */
  readonly timeoutMs?: number;
  /** A lock older than this is taken over even when its pid looks alive (pid reuse, another host). @default 30000 */
  readonly staleMs?: number;
}

/** Given to the holder: the lock can be taken over as stale while its holder is slow (a stall past the stale age). */
export interface HeldLock {
  /** `true` while the lock name is still the file this holder placed; a writer checks it right before its rename. */
  stillHeld(): Promise<boolean>;
}

export async function withFileLock<T>(lockPath: string, fn: (lock: HeldLock) => Promise<T>, options: LockOptions = {}): Promise<T> {
  const held = await acquireLock(lockPath, options);
  try {
    return await fn(heldLock(lockPath, held));
  } finally {
    await releaseLock(lockPath, held);
  }
}

async function acquireLock(lockPath: string, options: LockOptions): Promise<Stats> {
  const timeoutMs = options.timeoutMs ?? LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  const deadline = Date.now() + timeoutMs;
  const candidate = candidateName(lockPath);
  const handle = await writeCandidate(lockPath, candidate);
  try {
    let delay = 1;
    for (let attempt = 0; ; attempt += 1) {
      // The lock's age is its mtime: a candidate that waited must not look old the moment it lands.
      if (attempt > 0) await handle.utimes(new Date(), new Date());
      const placed = await placeCandidate(candidate, lockPath, handle);
      if (placed) return placed;
      const verdict = await judgeLock(lockPath, staleMs, Date.now());
      if (verdict.kind === "stale") await breakStaleLock(lockPath, verdict.stats, verdict.why);
      if (Date.now() >= deadline) {
        throw writeFailed("lock-timeout", lockPath, `timed out after ${timeoutMs} ms waiting for the lock ${lockPath}, held by a running emit; if none is running, delete that file`);
      }
      if (verdict.kind === "held") {
        await sleep(delay / 2 + (delay / 2) * Math.random());
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      } else if (attempt > 3) {
        await sleep(1); // gone or broken again and again: someone else keeps winning; yield, do not spin
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
    await unlink(candidate).catch(() => undefined);
  }
}

export function heldLock(lockPath: string, held: Stats): HeldLock {
  return {
    async stillHeld() {
      try {
        const now = await lstat(lockPath);
        return now.ino === held.ino && now.dev === held.dev;
      } catch {
        return false;
      }
    },
  };
}

/** The candidate's private name beside the lock: pid plus a random suffix, created with O_EXCL. */
function candidateName(lockPath: string): string {
  return `${lockPath}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

// The record goes into a private temp file first; only a complete file is ever linked to the lock name.
async function writeCandidate(lockPath: string, candidate: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(candidate, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    await handle.writeFile(lockRecordText(Date.now()));
    return handle;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(candidate).catch(() => undefined);
    throw lockError(lockPath, "create", error);
  }
}

/** The lock's identity when the link made it ours; `undefined` when something already sits at the name. */
async function placeCandidate(candidate: string, lockPath: string, handle: FileHandle): Promise<Stats | undefined> {
  try {
    await link(candidate, lockPath);
    return await handle.stat();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return undefined;
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") return placeWithoutLink(lockPath, error);
    throw lockError(lockPath, "create", error);
  }
}

// A file system without hard links: O_EXCL create, then the record. The file is empty for microseconds, and a
// lock without a record is only judged stale once it is a second old, so the rule still holds.
async function placeWithoutLink(lockPath: string, linkError: unknown): Promise<Stats | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw lockError(lockPath, "create", (error as NodeJS.ErrnoException).code ? error : linkError);
  }
  try {
    // A fresh record (the candidate's handle is write-only, so it cannot be read back).
    await handle.writeFile(lockRecordText(Date.now()));
    return await handle.stat();
  } catch (error) {
    await unlink(lockPath).catch(() => undefined);
    throw lockError(lockPath, "create", error);
  } finally {
    await handle.close();
  }
}

// Deletes the stale lock only if it is still the very file that was judged: a lock re-created meanwhile by another
// emit is a different inode (or a newer mtime) and survives. A stale lock we may not delete ends the wait at once.
export async function breakStaleLock(lockPath: string, judged: Stats, why: string): Promise<void> {
  try {
    const now = await lstat(lockPath);
    if (now.ino !== judged.ino || now.dev !== judged.dev || now.mtimeMs !== judged.mtimeMs) return;
    await unlink(lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code === "EPERM" || code === "EACCES" || code === "EROFS") {
      throw writeFailed(
        "lock-stale",
        lockPath,
        `the lock ${lockPath} is stale (${why}) but cannot be removed (${code}: it belongs to uid ${judged.uid}); remove it as that user or as root, then try again`,
        { cause: error },
      );
    }
    throw lockError(lockPath, "remove the stale", error);
  }
}

// Only our own lock is removed: if it was taken over as stale meanwhile, the name now belongs to someone else.
export async function releaseLock(lockPath: string, held: Stats): Promise<void> {
  try {
    const now = await lstat(lockPath);
    if (now.ino === held.ino && now.dev === held.dev) await unlink(lockPath);
  } catch {
    // Already gone: nothing to release.
  }
}
