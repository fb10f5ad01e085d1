// Each workspace `surface` would look in: it exists, this user can create files in it (emit writes there, the
// surfacer claims and deletes there), and it is not on a tmpfs that a reboot empties with every summary waiting.
import { mkdtemp, rmdir, stat, statfs } from "node:fs/promises";
import { join } from "node:path";
import { describeFsError } from "../fs/errors.js";
import { expandWorkspaces } from "../surfacer/workspaces.js";
import type { CheckLine } from "./types.js";

// statfs(2) f_type of tmpfs and of ramfs (linux/magic.h): both live in memory and are empty after a reboot.
const MEMORY_FS = new Map<number, string>([[0x01021994, "tmpfs"], [0x858458f6, "ramfs"]]);

export async function checkWorkspaces(patterns: readonly string[], cwd: string): Promise<CheckLine[]> {
  const { dirs, emptyGlobs } = await expandWorkspaces(patterns, cwd);
  const lines: CheckLine[] = emptyGlobs.map((g) => ({ area: "workspace", subject: g, status: "fail", detail: "the glob matches no folder: is the path right, is the fleet mounted?" }));
  for (const dir of dirs) lines.push(await checkWorkspace(dir));
  return lines;
}

async function checkWorkspace(dir: string): Promise<CheckLine> {
  const line = (status: CheckLine["status"], detail: string): CheckLine => ({ area: "workspace", subject: dir, status, detail });
  try {
    if (!(await stat(dir)).isDirectory()) return line("fail", "is not a folder");
  } catch (error) {
    return line("fail", `does not exist or cannot be read (${describeFsError(error)}): create it, or fix --workspace / surface.workspaces`);
  }
  // Writable as the surfacer needs it: a file can be created (and removed). access(W_OK) says yes to root on a
  // read-only mount; creating something says what the surfacer will meet.
  try {
    await rmdir(await mkdtemp(join(dir, ".skip-summary-check-")));
  } catch (error) {
    return line("fail", `is not writable by this user (${describeFsError(error)}): skills cannot leave summaries here, and the surfacer cannot delete them after a send`);
  }
  const kind = MEMORY_FS.get(Number((await statfs(dir)).type));
  if (kind !== undefined) return line("warn", `is on ${kind}: a reboot empties it, with every summary still waiting; use a folder on disk`);
  return line("ok", "exists and is writable");
}
