// Two owners emitting for one skill at once must not lose a skip: the read-merge-write runs under this lock.
// An O_EXCL lock file is enough here: it is held for milliseconds, and a holder that died is detected by pid or age.
import { open, readFile, stat, unlink } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { SummaryWriteError } from "./errors.js";

const DEAD_HOLDER_MIN_AGE_MS = 1_000;

export interface LockOptions {
  /** Give up after this long. @default 10000 */
  readonly timeoutMs?: number;
  /** A lock older than this is taken over even when its pid looks alive (pid reuse, another host). @default 30000 */
  readonly staleMs?: number;
}

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  for (;;) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      await handle.writeFile(JSON.stringify({ pid: process.pid, at: Date.now() }));
      await handle.close();
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        throw new SummaryWriteError("unwritable", lockPath, `cannot create the lock file ${lockPath}: ${code ?? (error as Error).message}`, { cause: error });
      }
      const state = await holderState(lockPath, staleMs);
      if (state === "released") continue;
      if (state === "stale") {
        await breakStaleLock(lockPath, staleMs);
        continue;
      }
      if (Date.now() > deadline) {
        throw new SummaryWriteError("lock-timeout", lockPath, `timed out after ${timeoutMs} ms waiting for the lock ${lockPath}; if no other emit is running, delete that file`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 50);
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

// "released" must never lead to an unlink: by the time we act, someone else may hold a fresh lock at that name.
// A dead pid counts only for a lock older than a second: a holder that just finished and exited would otherwise
// look dead while its successor's fresh lock sits at the same name.
async function holderState(lockPath: string, staleMs: number): Promise<"held" | "stale" | "released"> {
  try {
    const age = Date.now() - (await stat(lockPath)).mtimeMs;
    if (age > staleMs) return "stale";
    if (age < DEAD_HOLDER_MIN_AGE_MS) return "held";
    const holder = JSON.parse(await readFile(lockPath, "utf8")) as { pid?: unknown };
    if (typeof holder.pid !== "number" || holder.pid === process.pid) return "held";
    process.kill(holder.pid, 0);
    return "held";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "released";
    if (code === "ESRCH") return "stale";
    // A lock being written right now (empty or partial JSON) is held until its age says otherwise.
    return "held";
  }
}

// Re-checks the age right before breaking, so a lock another process re-created a moment ago survives.
async function breakStaleLock(lockPath: string, staleMs: number): Promise<void> {
  try {
    const age = Date.now() - (await stat(lockPath)).mtimeMs;
    if (age >= Math.min(DEAD_HOLDER_MIN_AGE_MS, staleMs)) await unlink(lockPath);
  } catch {
    // Already gone: nothing to break.
  }
}
