// Bookkeeping never blocks delivery. A ledger, journal batch or silences file that cannot be read (too big, not
// JSON, a `null`, a link, folder or FIFO at its name, a file where the ledger folder should be) costs only what it
// holds: it is moved to the quarantine folder with a reason beside it, as an unreadable summary is, the caller is
// told once, and the caller goes on as if it were empty. The notice still goes out; `history` and `silence` report
// it and exit 1. The file is only moved while it is still unreadable (checked again, under its lock when it has
// one), so a good file a writer put there meanwhile is never taken away.
import { lstat, rename } from "node:fs/promises";
import { relative } from "node:path";
import { isSkipSummaryError } from "../../contract/errors.js";
import { describeFsError, isSystemError } from "../../fs/errors.js";
import { withFileLock } from "../../fs/lock.js";
import { openQuarantine, quarantinePlace, type SetAsideRecord } from "../quarantine.js";

export type BookkeepingKind = "ledger" | "journal batch" | "silences" | "ledger folder";

/** One file set aside (or that could not be: `moveProblem`). */
export interface SetAsideFile {
  readonly file: string;
  readonly kind: BookkeepingKind;
  /** Why it could not be read. */
  readonly problem: string;
  /** Where it is now, in the quarantine folder. */
  readonly movedTo?: string;
  /** Why it could not be moved; it is then left where it is, and ignored. */
  readonly moveProblem?: string;
}

/** What every reader and writer of the ledger's files takes. */
export interface BookkeepingOptions {
  /** The clock of the quarantine names. @default () => new Date() */
  readonly clock?: (() => Date) | undefined;
  /** Told once per file set aside: the one warning that names it. */
  readonly onSetAside?: ((file: SetAsideFile) => void) | undefined;
}

/**
 * Why `error`, met while reading a bookkeeping file, makes that file unreadable: in words, or `undefined` when it is
 * no such thing (a bug of ours, which goes on up). Only ENOENT is not asked here: a missing file is an empty one.
 */
export function unreadableWords(error: unknown): string | undefined {
  if (isSkipSummaryError(error, "fs.input_too_large")) return `it is larger than ${error.data.limit} bytes, the limit of this file`;
  if (error instanceof SyntaxError) return `it is not JSON (${error.message})`;
  if (isSystemError(error)) {
    if (error.code === "ELOOP") return "it is a symbolic link";
    if (error.code === "ENOTREG") return "it is not a regular file (a folder, a FIFO or a device)";
    if (error.code === "EISDIR") return "it is a folder";
    return `it cannot be read: ${describeFsError(error)}`;
  }
  return undefined;
}

// One move per file at a time in this process: readers that met the same file together wait for the first, which
// alone reports it.
const moving = new Map<string, Promise<void>>();

export interface SetAsideRequest {
  readonly workspace: string;
  readonly path: string;
  readonly kind: BookkeepingKind;
  readonly problem: string;
  /**
   * Reads the file again: its problem when it is still unreadable, `undefined` when it is fine or gone now (another
   * surfacer set it aside, or a writer replaced it). Run under the file's lock when `lock` is set.
   */
  readonly recheck: () => Promise<string | undefined>;
  /** Take `<path>.lock` for the recheck and the move (the caller does not hold it already). @default false */
  readonly lock?: boolean;
}

/** Moves the unreadable file to the quarantine folder and tells `onSetAside`; never throws for the file system. */
export async function setAside(request: SetAsideRequest, options: BookkeepingOptions = {}): Promise<void> {
  const known = moving.get(request.path);
  if (known) return known;
  const job = move(request, options).finally(() => moving.delete(request.path));
  moving.set(request.path, job);
  return job;
}

async function move(request: SetAsideRequest, options: BookkeepingOptions): Promise<void> {
  const now = (options.clock ?? (() => new Date()))();
  const attempt = async (): Promise<SetAsideFile | undefined> => {
    const problem = await request.recheck();
    if (problem === undefined) return undefined;
    const base = { file: request.path, kind: request.kind, problem };
    const place = quarantinePlace(request.workspace, relative(request.workspace, request.path).replaceAll("/", "~"), now);
    try {
      const dir = await openQuarantine(place, true);
      try {
        const record: SetAsideRecord = { original: request.path, kind: request.kind, problem, set_aside_at: now.toISOString() };
        const { replaceAtomically } = await import("../../fs/safe-write.js");
        await replaceAtomically(dir!.at(place.reasonPath.slice(place.dir.length + 1)), `${JSON.stringify(record, null, 2)}\n`);
        await rename(request.path, dir!.at(place.path.slice(place.dir.length + 1)));
        await dir!.sync();
      } finally {
        await dir!.close();
      }
      return { ...base, movedTo: place.path };
    } catch (error) {
      if (isSystemError(error) && error.code === "ENOENT") return undefined; // gone meanwhile: someone else moved it
      if (!isSystemError(error) && !isSkipSummaryError(error, "fs.unsafe_path")) throw error;
      return { ...base, moveProblem: `it could not be moved to quarantine (${describeFsError(error)}); it is ignored where it is` };
    }
  };
  const told = request.lock ? await withFileLock(`${request.path}.lock`, attempt).catch(() => attempt()) : await attempt();
  if (told) options.onSetAside?.(told);
}

/** Sets aside whatever sits at `path` (the ledger folder, `_journal/`) when it is not a real folder. */
export async function setAsideIfNotFolder(workspace: string, path: string, options: BookkeepingOptions): Promise<void> {
  const recheck = async () => {
    const stats = await lstat(path).catch(() => undefined);
    if (!stats || stats.isDirectory()) return undefined;
    return stats.isSymbolicLink() ? "it is a symbolic link, not a folder" : "it is a file, not a folder";
  };
  const problem = await recheck();
  if (problem !== undefined) await setAside({ workspace, path, kind: "ledger folder", problem, recheck }, options);
}

/** One line for a person: what was wrong with the file and where it went. */
export function setAsideWords(f: SetAsideFile): string {
  const where = f.movedTo ? `set aside to ${f.movedTo}` : (f.moveProblem ?? "left where it is");
  return `the ${f.kind} file ${f.file} cannot be read (${f.problem}); ${where}; what it held is lost, nothing else is affected`;
}
