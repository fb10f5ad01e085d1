// What the safe-path layer refuses, as data (`fs.unsafe_path`): the CLI and the logs word it, callers map it to an
// exit code (73, EX_CANTCREAT: the place to write is not usable) without matching on messages. And the one test for
// "the file system said no" (an errno), which callers use to narrow what they expect from what is a bug.
import { isSkipSummaryError, SkipSummaryError, type UnsafePathKind, type WriteRefusalKind } from "../contract/errors.js";

export type { UnsafePathKind, WriteRefusalKind };

export function unsafePath(kind: UnsafePathKind, path: string, message: string): SkipSummaryError<"fs.unsafe_path"> {
  return new SkipSummaryError("fs.unsafe_path", message, { kind, path });
}

/**
 * The durable-file layer (the lock, the atomic writer) failed to write. Its code stays `owner.write_failed`, the
 * owner's word, because emit is what people meet it through (exit 73, `SUMMARY_WRITE_FAILED`); the ledger's lock and
 * writes raise the same code, and the surfacer words it for its own files.
 */
export function writeFailed(kind: WriteRefusalKind, path: string, message: string, options?: ErrorOptions): SkipSummaryError<"owner.write_failed"> {
  return new SkipSummaryError("owner.write_failed", message, { kind, path }, options);
}

/** True for an error the file system raised (ENOENT, EACCES, EROFS, ...), as opposed to a bug of ours. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}

/** A path-layer refusal, a bounded read that hit its limit or a file-system error: the environment's fault, never a bug (exit 70) of ours. */
export function isEnvironmentError(error: unknown): boolean {
  return isSkipSummaryError(error, ["fs.unsafe_path", "fs.input_too_large"]) || isSystemError(error);
}

const WORDS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "a read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  ENOENT: "no such file or folder",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "it is a folder",
  ELOOP: "a symbolic link",
  EXDEV: "another file system",
  EIO: "an I/O error",
  EMFILE: "too many open files",
  ENFILE: "too many open files",
};

/** `EROFS (a read-only file system)`: the code, for searching, and words, for people. */
export function describeFsError(error: unknown): string {
  if (isSkipSummaryError(error)) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return (error as Error)?.message ?? String(error);
  return WORDS[code] ? `${code} (${WORDS[code]})` : code;
}
