// A reader must never see a partial summary under its final name, and a planted symlink must not redirect the write.
//
// Why not write-file-atomic here: it resolves the final name with realpath() and writes to the link's target,
// which this contract forbids, and loading it (signal-exit, crypto, worker_threads) costs about 10 ms of CPU on
// every emit, which runs after every skill. The sequence below is the same one it uses, minus link following:
// an exclusive O_NOFOLLOW temp file in the same folder, fsync, rename (which replaces a link, never its target),
// fsync of the folder.
import { constants } from "node:fs";
import { lstat, open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { SummaryWriteError } from "./errors.js";

/** What sits at `path` now: nothing, a regular file, or something the writer must refuse. */
export async function inspectTarget(path: string): Promise<"missing" | "file"> {
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new SummaryWriteError("unwritable", path, `cannot inspect ${path}: ${(error as NodeJS.ErrnoException).code}`, { cause: error });
  }
  if (stats.isFile()) return "file";
  const what = stats.isSymbolicLink() ? "a symbolic link" : stats.isDirectory() ? "a directory" : stats.isFIFO() ? "a FIFO" : "not a regular file";
  throw new SummaryWriteError(
    "not-regular-file",
    path,
    `refusing to write ${path}: it is ${what}, not a regular file; remove it and emit again`,
  );
}

/** Reads a regular file without following a symlink at its name. */
export async function readRegularFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * The temp name: same folder (so rename is atomic), and never of the `.skip-summary-<id>.json` form.
 * O_EXCL makes a clash fail instead of sharing a file, so pid plus a random suffix is enough (no crypto load).
 */
export function tempNameFor(path: string): string {
  return `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

export async function writeFileAtomically(path: string, text: string, mode = 0o644): Promise<void> {
  const tmp = tempNameFor(path);
  try {
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    await fsyncDirectory(dirname(path));
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new SummaryWriteError("unwritable", path, `cannot write ${path}: ${reason}; check that the workspace exists and is writable`, { cause: error });
  }
}

// The rename is only durable once the folder's entry is on disk.
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
