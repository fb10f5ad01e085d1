// Deciding whether a lock's holder is gone is the half of the lock protocol (docs/owner.md, "The lock") that other
// languages must copy exactly, so it lives apart from the acquire loop, as data in and a verdict out.
import { constants, type Stats } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { hostname } from "node:os";
import { isSystemError, writeFailed } from "./errors.js";

/** A lock younger than this is held whatever it says: its holder may have just finished and exited. */
export const LOCK_DEAD_HOLDER_MIN_AGE_MS = 1_000;
/**
 * How far ahead of our clock a lock's mtime may be and still count as young: clocks of processes sharing a folder
 * (another container, an NFS server) differ by a little. A lock dated further in the future tells nothing by its
 * age, so its record decides; before this, one left by a dead emit under a clock that was ahead blocked every
 * emit (10 s, then exit 73) until our clock caught up.
 */
export const LOCK_CLOCK_SKEW_MS = 2_000;
/** A lock whose record cannot be read is never bigger than this; more is not a record. */
const RECORD_MAX_BYTES = 4_096;

export interface LockRecord {
  readonly pid: number;
  readonly host: string;
  readonly at: number;
}

/** The one line a lock file holds: who holds it, on which host, since when (ms). */
export function lockRecordText(now: number): string {
  return `${JSON.stringify({ pid: process.pid, host: hostname(), at: now } satisfies LockRecord)}\n`;
}

export type Verdict = { readonly kind: "gone" } | { readonly kind: "held" } | { readonly kind: "stale"; readonly stats: Stats; readonly why: string };

/**
 * What sits at the lock name: gone (retry at once), held (wait), or stale (break it). Anything that is not a
 * regular file is refused at once: no emit of ours made it, and waiting cannot make it go away.
 */
export async function judgeLock(lockPath: string, staleMs: number, now: number): Promise<Verdict> {
  let stats: Stats;
  try {
    stats = await lstat(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "gone" };
    throw lockError(lockPath, "inspect", error);
  }
  if (!stats.isFile()) {
    const what = stats.isSymbolicLink() ? "a symbolic link" : stats.isDirectory() ? "a directory" : stats.isFIFO() ? "a FIFO" : "not a regular file";
    throw writeFailed("not-regular-file", lockPath, `refusing to use the lock ${lockPath}: it is ${what}, not a lock file; remove it and try again`);
  }
  const age = now - stats.mtimeMs;
  if (age > staleMs) return { kind: "stale", stats, why: `it is ${Math.round(age / 1000)} s old` };
  if (age < LOCK_DEAD_HOLDER_MIN_AGE_MS && age >= -LOCK_CLOCK_SKEW_MS) return { kind: "held" };
  const record = await readRecord(lockPath);
  if (record === "gone") return { kind: "gone" };
  // Unreadable (another user's file): only its age can free it.
  if (record === "unreadable") return { kind: "held" };
  if (record === undefined) return { kind: "stale", stats, why: "it holds no lock record" };
  if (record.host !== hostname() || record.pid === process.pid) return { kind: "held" };
  try {
    process.kill(record.pid, 0);
    return { kind: "held" };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? { kind: "stale", stats, why: `its holder (pid ${record.pid}) is gone` } : { kind: "held" };
  }
}

async function readRecord(lockPath: string): Promise<LockRecord | undefined | "gone" | "unreadable"> {
  let text: string;
  try {
    const handle = await open(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(RECORD_MAX_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, RECORD_MAX_BYTES, 0);
      text = buffer.toString("utf8", 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "gone" : "unreadable";
  }
  try {
    const raw = JSON.parse(text) as Partial<LockRecord>;
    if (!Number.isSafeInteger(raw.pid) || (raw.pid as number) <= 0) return undefined;
    // A record without a host (written by an older emit) is taken to be from this host.
    return { pid: raw.pid as number, host: typeof raw.host === "string" ? raw.host : hostname(), at: Number(raw.at) };
  } catch {
    return undefined;
  }
}

/** The file system's refusal as `owner.write_failed`; anything else (a bug of ours) is given back as it is, to be thrown. */
export function lockError(lockPath: string, doing: string, error: unknown): unknown {
  if (!isSystemError(error)) return error;
  const code = error.code;
  const hint = code === "ENOSPC" ? " (no space left on the device)" : code === "EROFS" ? " (a read-only file system)" : "";
  return writeFailed("unwritable", lockPath, `cannot ${doing} the lock file ${lockPath}: ${code}${hint}; check that the workspace is writable`, { cause: error });
}
