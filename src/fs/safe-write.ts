// Every file the tools create or append inside a workspace goes through these three calls, so that a link or
// a hard link planted at the name never turns a write into a write somewhere else.
//   appendSafely:      O_APPEND | O_CREAT | O_NOFOLLOW, then fstat: a regular file with one name, or refused.
//   createExclusively: O_CREAT | O_EXCL | O_NOFOLLOW: a fresh file, or EEXIST (a dangling link counts as there).
//   replaceAtomically: an exclusive temp file in the same folder, fsync, rename over the name (rename replaces
//                      a link, never writes to its target), fsync of the folder.
import { constants } from "node:fs";
import { open, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { unsafePath } from "./errors.js";
import { entryKind, kindOf, refusal } from "./inspect.js";

export interface WriteOptions {
  /** @default 0o600 */
  readonly mode?: number;
  /**
   * replaceAtomically: fsync the folder after the rename. A caller writing many files fsyncs it once itself (the
   * ledger's compaction, before it deletes what it folded). @default true
   */
  readonly syncFolder?: boolean;
  /** replaceAtomically: called once the temp file is complete, right before the rename; a throw cancels the write. */
  readonly beforeRename?: () => Promise<void>;
}

/** Appends `text` to the regular file at `path`, creating it; refuses a link, a non-file or a hard-linked file. */
export async function appendSafely(path: string, text: string, options: WriteOptions = {}): Promise<void> {
  // O_NONBLOCK: a FIFO at the name must not block the open; the fstat below refuses it.
  const handle = await openNoFollow(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, options.mode ?? 0o600, "append to");
  try {
    await assertPlainFile(handle, path, "append to");
    await handle.writeFile(text, "utf8");
  } finally {
    await handle.close();
  }
}

/** Creates `path` holding `text`; EEXIST (thrown as is) when anything, a link included, is at the name. */
export async function createExclusively(path: string, text: string | Uint8Array, options: WriteOptions & { readonly sync?: boolean } = {}): Promise<void> {
  const handle = await openNoFollow(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, options.mode ?? 0o600, "create");
  try {
    await handle.writeFile(text);
    if (options.sync) await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/**
 * Replaces whatever is at `path` with a regular file holding `text`, atomically and durably. The temp name is in
 * the same folder (so the rename is atomic) and never has the `.skip-summary-<id>.json` form; O_EXCL makes a clash
 * fail instead of sharing a file, so pid plus a random suffix is enough (no crypto load on emit's path).
 */
export async function replaceAtomically(path: string, text: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  const tmp = join(dirname(path), `${basename(path)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  try {
    await createExclusively(tmp, text, { mode: options.mode ?? 0o600, sync: true });
    await options.beforeRename?.();
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  if (options.syncFolder !== false) await syncFolder(dirname(path));
}

/** A rename is only durable once the folder's entry is on disk. */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function openNoFollow(path: string, flags: number, mode: number, action: string): Promise<FileHandle> {
  try {
    return await open(path, flags | constants.O_NOFOLLOW, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EISDIR" || code === "ENXIO") throw await refusal(path, await entryKind(path), "regular file", action);
    throw error;
  }
}

// A second name (a hard link planted beside a file elsewhere) would make our write land in that other file too.
async function assertPlainFile(handle: FileHandle, path: string, action: string): Promise<void> {
  const stats = await handle.stat();
  if (!stats.isFile()) throw await refusal(path, kindOf(stats), "regular file", action);
  if (stats.nlink > 1) {
    throw unsafePath("hard-linked", path, `refusing to ${action} ${path}: it has ${stats.nlink} hard links, so the write would also change a file elsewhere. Move it away and run again`);
  }
}
