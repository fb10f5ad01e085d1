// Two owners emitting for one skill at once must not lose a skip: the read-merge-write runs under this lock.
// An O_EXCL lock file is enough here: it is held for milliseconds, and a holder that died is detected by pid or age.
import { open, readFile, stat, unlink } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { SummaryWriteError } from "./errors.js";

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
      if (await isStale(lockPath, staleMs)) {
        await unlink(lockPath).catch(() => undefined);
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

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    if (Date.now() - (await stat(lockPath)).mtimeMs > staleMs) return true;
    const holder = JSON.parse(await readFile(lockPath, "utf8")) as { pid?: unknown };
    if (typeof holder.pid !== "number" || holder.pid === process.pid) return false;
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // ESRCH: the holder is gone. ENOENT: released meanwhile, so try again at once. Anything else
    // (a lock being written right now) is not stale until its age says so.
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ESRCH" || code === "ENOENT";
  }
}
