// Reads and replaces a Claude Code settings file for `hooks install/uninstall`. The text edits are pure
// (settings-edit.ts); this is the I/O around them: a missing file is empty, a link or a non-file is refused, and the
// new text replaces the old atomically, so a crash never leaves half a settings file for Claude Code to reject.
import { constants } from "node:fs";
import { lstat, mkdir, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { replaceAtomically } from "../fs/index.js";
import { SkipSummaryError } from "../contract/errors.js";
import { describeFsError, isEnvironmentError, isSystemError } from "../fs/errors.js";
import { settingsInvalid } from "./settings-edit.js";

/** The file's text, or `undefined` when it does not exist. */
export async function readSettingsFile(path: string): Promise<string | undefined> {
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    if (error.code === "ENOENT") return undefined;
    throw settingsInvalid(`cannot be read (${error.code})`);
  }
  if (!stats.isFile()) throw settingsInvalid(`is ${stats.isSymbolicLink() ? "a symbolic link" : "not a regular file"}; point --settings at the real file`);
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the file's text, keeping its mode; creates `.claude/` one level deep when it is missing. The file
 * system's refusals (a missing folder, EACCES, a link at the name) are `hooks.settings_unwritable`.
 */
export async function writeSettingsFile(path: string, text: string): Promise<void> {
  try {
    const mode = await stat(path).then((s) => s.mode & 0o777, () => 0o644);
    await mkdir(dirname(path), { recursive: false }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    await replaceAtomically(path, text, { mode });
  } catch (error) {
    if (!isEnvironmentError(error)) throw error;
    const errno = isSystemError(error) ? error.code : describeFsError(error);
    throw new SkipSummaryError("hooks.settings_unwritable", `cannot write ${path}: ${errno}; check that its folder exists and is writable`, { path, errno }, { cause: error });
  }
}
