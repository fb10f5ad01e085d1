// A reader must never see a partial summary under its final name, and a planted symlink must not redirect the write.
// write-file-atomic does temp file + fsync + rename; it resolves symlinks itself, so the final name is checked
// first (under the skill's lock) and the folder is fsynced after, which write-file-atomic does not do.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
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
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

export async function writeFileAtomically(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text, { fsync: true, mode: 0o644 });
    await fsyncDirectory(dirname(path));
  } catch (error) {
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
