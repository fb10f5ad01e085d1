// Looking at a name without following it: every decision the layer makes starts from lstat, never stat.
import { lstat, readlink } from "node:fs/promises";
import type { Stats } from "node:fs";
import type { SkipSummaryError } from "../contract/errors.js";
import { unsafePath, type UnsafePathKind } from "./errors.js";

export type EntryKind = "missing" | "file" | "directory" | "symlink" | "fifo" | "socket" | "device";

export function kindOf(stats: Stats): Exclude<EntryKind, "missing"> {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  return "device";
}

const WORDS: Record<EntryKind, string> = {
  missing: "missing",
  file: "a regular file",
  directory: "a directory",
  symlink: "a symbolic link",
  fifo: "a FIFO",
  socket: "a socket",
  device: "a device",
};

export function describeKind(kind: EntryKind): string {
  return WORDS[kind];
}

/** What sits at `path` itself (a link is reported as a link); "missing" for ENOENT, other errors are thrown. */
export async function entryKind(path: string): Promise<EntryKind> {
  try {
    return kindOf(await lstat(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
}

/** The refusal for `path`, worded once: what is there, that we never go through it, and how to fix it. */
export async function refusal(path: string, found: EntryKind, wanted: "directory" | "regular file", action: string): Promise<SkipSummaryError<"fs.unsafe_path">> {
  const kind: UnsafePathKind = found === "symlink" ? "symlink" : wanted === "directory" ? "not-directory" : "not-regular-file";
  const target = found === "symlink" ? await readlink(path).then((t) => ` (to ${t})`, () => "") : "";
  const why = found === "symlink" ? "skip-summary never creates or appends files through a link" : `it must be a ${wanted}`;
  return unsafePath(kind, path, `refusing to ${action} ${path}: it is ${describeKind(found)}${target}; ${why}. Move it away and run again`);
}
