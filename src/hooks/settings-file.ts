// Reads, edits and replaces a Claude Code settings file for `hooks install/uninstall`. The text edits are pure
// (settings-edit.ts); this is the I/O around them:
// - the folder is opened once without following a link (src/fs safe-dir): a `.claude/` that is a link to somewhere
//   else is refused, so nothing is written outside the workspace, and every step goes through the folder checked;
// - the read is bounded (MAX_SETTINGS_BYTES), never through a link, never blocked on a FIFO; a missing file is empty;
// - read, edit and write run under the owner's file lock (docs/owner.md, "The lock") on a name beside the file:
//   six `hooks install` at once each re-read what the one before wrote, so every entry survives;
// - the new text replaces the old atomically, so a crash never leaves half a settings file for Claude Code.
import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { isSkipSummaryError, SkipSummaryError } from "../contract/errors.js";
import { describeFsError, isEnvironmentError, isSystemError, openSafeDir, readOwnRecord, replaceAtomically, withFileLock, type SafeDir } from "../fs/index.js";
import type { HookEdit } from "./settings-edit.js";
import { MAX_SETTINGS_BYTES, settingsInvalid } from "./settings-limits.js";

export interface SettingsChange {
  /** The file's text before the edit; `undefined` when it did not exist. */
  readonly before: string | undefined;
  readonly edit: HookEdit;
}

export interface ChangeSettingsOptions {
  /** Only compute the edit: no folder created, no lock taken, nothing written. @default false */
  readonly dryRun?: boolean;
  /** How long to wait for another `hooks` run holding the file's lock. @default 10000 */
  readonly lockTimeoutMs?: number;
}

/** The lock's name beside the settings file (removed when the edit is done). */
export const settingsLockName = (file: string) => `.${basename(file)}.skip-summary.lock`;

/**
 * Applies `edit` to the settings file at `path` under its lock and writes the result when it changed. Throws
 * `hooks.settings_invalid` for a file (or folder) it will not edit and `hooks.settings_unwritable` when the
 * file system says no (or another run holds the lock past the deadline).
 */
export async function changeSettingsFile(path: string, edit: (text: string) => HookEdit, options: ChangeSettingsOptions = {}): Promise<SettingsChange> {
  const name = basename(path);
  let dir: SafeDir | undefined;
  try {
    dir = await openFolder(path, options.dryRun === true);
    if (dir === undefined) return { before: undefined, edit: edit("") };
    const open = dir;
    const change = async () => {
      const before = await readSettings(open.at(name), path);
      const result = edit(before ?? "");
      if (!options.dryRun && result.changed.length > 0) {
        const mode = await stat(open.at(name)).then((s) => s.mode & 0o777, () => 0o644);
        await replaceAtomically(open.at(name), result.text, { mode });
      }
      return { before, edit: result };
    };
    if (options.dryRun) return await change();
    return await withFileLock(open.at(settingsLockName(path)), change, { timeoutMs: options.lockTimeoutMs });
  } catch (error) {
    throw unwritable(path, error);
  } finally {
    await dir?.close();
  }
}

// `.claude/` one level deep is created when missing (a dry run only looks); a link or a non-folder is refused.
async function openFolder(path: string, dryRun: boolean): Promise<SafeDir | undefined> {
  try {
    return await openSafeDir(dirname(path), { create: !dryRun, mode: 0o755 });
  } catch (error) {
    if (dryRun && isSystemError(error) && error.code === "ENOENT") return undefined;
    if (isSkipSummaryError(error, "fs.unsafe_path")) {
      const what = error.data.kind === "symlink" ? "is a symbolic link" : "is not a folder";
      throw settingsInvalid(`cannot be edited: its folder ${dirname(path)} ${what}, and hooks install never writes through a link or outside the workspace; make it a real folder (or point --settings at the real file), nothing was written`);
    }
    throw error;
  }
}

/** The file's text, or `undefined` when it does not exist. */
async function readSettings(at: string, path: string): Promise<string | undefined> {
  try {
    return (await readOwnRecord(at, MAX_SETTINGS_BYTES)).toString("utf8");
  } catch (error) {
    if (isSkipSummaryError(error, "fs.input_too_large")) {
      const size = await stat(at).then((s) => ` (${s.size} bytes)`, () => "");
      throw settingsInvalid(`is larger than ${MAX_SETTINGS_BYTES} bytes${size}, so it is not read; a settings file is a few KiB: check that --settings names the right file, nothing was written`);
    }
    if (!isSystemError(error) && (error as { code?: unknown }).code !== "ENOTREG") throw error;
    const code = (error as { code: string }).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw settingsInvalid("is a symbolic link; point --settings at the real file, nothing was written");
    if (code === "ENOTREG" || code === "ENXIO" || code === "EISDIR") throw settingsInvalid("is not a regular file; point --settings at the real file, nothing was written");
    throw settingsInvalid(`cannot be read (${describeFsError(error)})`);
  }
}

// The file system's refusals, and a lock held past the deadline, are `hooks.settings_unwritable` (exit 73).
function unwritable(path: string, error: unknown): unknown {
  if (isSkipSummaryError(error, ["hooks.settings_invalid", "hooks.settings_unwritable"])) return error;
  if (isSkipSummaryError(error, "owner.write_failed")) {
    const lock = `${dirname(path)}/${settingsLockName(path)}`;
    const why =
      error.data.kind === "lock-timeout"
        ? `another hooks install or uninstall held ${lock} too long; if none is running, delete that file`
        : `its lock ${lock} could not be taken (${error.cause === undefined ? error.data.kind : describeFsError(error.cause)}); check that the folder is writable`;
    return new SkipSummaryError("hooks.settings_unwritable", `cannot write ${path}: ${why}`, { path, errno: error.data.kind }, { cause: error });
  }
  if (!isEnvironmentError(error)) return error;
  const errno = isSystemError(error) ? error.code : describeFsError(error);
  return new SkipSummaryError("hooks.settings_unwritable", `cannot write ${path}: ${errno}; check that its folder exists and is writable`, { path, errno }, { cause: error });
}
