// A folder the tools create inside a workspace (the quarantine folder) must be a real folder, and everything put
// in it must land in that folder, not wherever a link planted at its name points.
//
// The folder is opened once with O_DIRECTORY | O_NOFOLLOW, which fails on a link (ELOOP) or a non-folder
// (ENOTDIR). On Linux every later step goes through /proc/self/fd/<fd>/<name>, which resolves to the folder
// that was opened even if its name is swapped for a link afterwards: the *at() system calls Node lacks. Where
// /proc is missing (macOS), the name is used, after the same check; the window between check and use remains.
import { constants, existsSync } from "node:fs";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { entryKind, refusal } from "./inspect.js";

export interface SafeDir {
  /** The folder's path, for messages and records. */
  readonly path: string;
  /** A path to `name` inside the folder that was opened and checked. */
  at(name: string): string;
  /** Flushes the folder's entries to disk (after a rename into it). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenSafeDirOptions {
  /** Create the folder (one level, never its parents) when it is missing. @default false */
  readonly create?: boolean;
  /** @default 0o700 */
  readonly mode?: number;
}

let procFd: boolean | undefined;
function hasProcFd(): boolean {
  procFd ??= existsSync("/proc/self/fd");
  return procFd;
}

/** Opens `path` as a folder; throws `fs.unsafe_path` for a link or a non-folder at that name. */
export async function openSafeDir(path: string, options: OpenSafeDirOptions = {}): Promise<SafeDir> {
  if (options.create) {
    // mkdir never follows a link at its last component: a planted link answers EEXIST, and the open below refuses it.
    await mkdir(path, { mode: options.mode ?? 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR") throw await refusal(path, await entryKind(path), "directory", "use the folder");
    throw error;
  }
  const stats = await handle.stat();
  if (!stats.isDirectory()) {
    await handle.close();
    throw await refusal(path, await entryKind(path), "directory", "use the folder");
  }
  const base = hasProcFd() ? `/proc/self/fd/${handle.fd}` : path;
  return {
    path,
    at: (name) => join(base, name),
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
}

/** Runs `fn` with the folder open, and closes it whatever happens. */
export async function withSafeDir<T>(path: string, options: OpenSafeDirOptions, fn: (dir: SafeDir) => Promise<T>): Promise<T> {
  const dir = await openSafeDir(path, options);
  try {
    return await fn(dir);
  } finally {
    await dir.close();
  }
}
