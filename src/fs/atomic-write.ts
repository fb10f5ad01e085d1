// A reader must never see a partial summary under its final name, and a planted symlink must not redirect the write.
//
// Why not write-file-atomic here: it resolves the final name with realpath() and writes to the link's target,
// which this contract forbids, and loading it (signal-exit, crypto, worker_threads) costs about 10 ms of CPU on
// every emit, which runs after every skill. The safe-path layer's replaceAtomically (src/fs) is the same sequence
// it uses, minus link following: an exclusive O_NOFOLLOW temp file in the same folder, fsync, rename (which
// replaces a link, never its target), fsync of the folder.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { MAX_SUMMARY_BYTES } from "../contract/read-file.js";
import { describeFsError, isEnvironmentError, writeFailed } from "./errors.js";
import { isSkipSummaryError } from "../contract/errors.js";
import { readOwnRecord } from "./read-bounded.js";
import { replaceAtomically, syncFolder } from "./safe-write.js";

/** What sits at `path` now: nothing, a regular file, or something the writer must refuse. */
export async function inspectTarget(path: string): Promise<"missing" | "file"> {
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw writeFailed("unwritable", path, `cannot inspect ${path}: ${(error as NodeJS.ErrnoException).code}`, { cause: error });
  }
  if (stats.isFile()) return "file";
  const what = stats.isSymbolicLink() ? "a symbolic link" : stats.isDirectory() ? "a directory" : stats.isFIFO() ? "a FIFO" : "not a regular file";
  throw writeFailed(
    "not-regular-file",
    path,
    `refusing to write ${path}: it is ${what}, not a regular file; remove it and emit again`,
  );
}

/**
 * Reads the waiting summary without following a symlink at its name, and at most a summary's worth of it: a file
 * of a gigabyte planted at the name must not be read into memory before it is refused.
 */
export async function readRegularFile(path: string): Promise<string> {
  try {
    return (await readOwnRecord(path, MAX_SUMMARY_BYTES)).toString("utf8");
  } catch (error) {
    if (!isSkipSummaryError(error, "fs.input_too_large")) throw error;
    throw writeFailed(
      "invalid-existing",
      path,
      `refusing to overwrite ${path}: the waiting summary is larger than ${MAX_SUMMARY_BYTES} bytes, so it is not a summary this writer made; run the surfacer to quarantine it, or move it away`,
    );
  }
}

/** The owner's words around the safe-path layer's one atomic replace (src/fs/safe-write.ts). */
export async function writeFileAtomically(path: string, text: string, mode = 0o644, options: { readonly beforeRename?: () => Promise<void> } = {}): Promise<void> {
  try {
    await replaceAtomically(path, text, { mode, ...options });
  } catch (error) {
    // Only the system's refusals (ENOSPC, EACCES, a refused path) mean "cannot write"; anything else is a bug and stays one.
    if (!isEnvironmentError(error)) throw error;
    throw writeFailed("unwritable", path, `cannot write ${path}: ${describeFsError(error)}; check that the workspace exists and is writable`, { cause: error });
  }
}

/** The rename is only durable once the folder's entry is on disk. */
export const fsyncDirectory = syncFolder;
