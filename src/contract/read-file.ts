// Reading a summary from disk safely: no symlink following (unless asked), no FIFO hangs, no huge files.
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { classifySummaryBytes, type Classified } from "./classify.js";
import { skillIdFromFileName } from "./paths.js";

/** The largest summary a reader accepts; a real one is a few hundred bytes. */
export const MAX_SUMMARY_BYTES = 64 * 1024;

export type ReadSummary = Classified | { readonly kind: "unreadable"; readonly reason: string; readonly code?: string };

export interface ReadSummaryOptions {
  /** The id `skill` must equal. @default the id in the file's name, when it has the summary form */
  readonly expectedSkill?: string;
  /** Follow a symlink at `path` (validate does; the surfacer never does). @default false */
  readonly followSymlinks?: boolean;
}

export async function readSummaryFile(path: string, options: ReadSummaryOptions = {}): Promise<ReadSummary> {
  // O_NONBLOCK keeps a FIFO from blocking the open; the fstat below then refuses it.
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.followSymlinks ? 0 : constants.O_NOFOLLOW);
  let handle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { kind: "unreadable", code, reason: "is a symbolic link; summaries are never read through links" };
    return { kind: "unreadable", code, reason: `cannot be opened (${code ?? (error as Error).message})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      const what = stats.isDirectory() ? "a directory" : stats.isFIFO() ? "a FIFO" : stats.isSocket() ? "a socket" : "not a regular file";
      return { kind: "unreadable", code: "ENOTREG", reason: `is ${what}, not a regular file` };
    }
    if (stats.size > MAX_SUMMARY_BYTES) {
      return { kind: "unreadable", code: "EFBIG", reason: `is ${stats.size} bytes; a summary is at most ${MAX_SUMMARY_BYTES} bytes` };
    }
    const buffer = Buffer.alloc(MAX_SUMMARY_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_SUMMARY_BYTES) {
      return { kind: "unreadable", code: "EFBIG", reason: `grew past ${MAX_SUMMARY_BYTES} bytes while being read` };
    }
    const expectedSkill = options.expectedSkill ?? skillIdFromFileName(basename(path));
    return classifySummaryBytes(buffer.subarray(0, bytesRead), expectedSkill === undefined ? {} : { expectedSkill });
  } finally {
    await handle.close();
  }
}
