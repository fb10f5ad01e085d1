// `--workspace` takes folders and globs (`/srv/groups/*/`, the host side of a fleet); this turns them into folders.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { fallbackFolder } from "../contract/fallback-folder.js";

export interface ExpandedWorkspaces {
  /** Absolute folders, sorted, without duplicates. Literal folders are listed even when missing. */
  readonly dirs: readonly string[];
  /** Literal (non-glob) workspaces that do not exist as folders right now. */
  readonly missing: readonly string[];
  /** Globs that matched no folder right now (a typo, or a fleet not mounted yet): said, never silent. */
  readonly emptyGlobs: readonly string[];
}

// fast-glob loads only for a pattern that can be a glob at all; a plain folder (the hook's case) costs nothing.
async function isGlob(pattern: string): Promise<boolean> {
  if (!/[*?[\]{}()!+@]/.test(pattern)) return false;
  return (await import("fast-glob")).default.isDynamicPattern(pattern);
}

export async function expandWorkspaces(patterns: readonly string[], cwd: string): Promise<ExpandedWorkspaces> {
  const dirs = new Set<string>();
  const missing: string[] = [];
  const emptyGlobs: string[] = [];
  for (const pattern of patterns) {
    const absolute = resolve(cwd, pattern);
    if (!(await isGlob(pattern))) {
      dirs.add(absolute);
      if (!(await isDir(absolute))) missing.push(absolute);
      continue;
    }
    const fg = (await import("fast-glob")).default;
    const matches = await fg(pattern.replace(/\/+$/, ""), { cwd, onlyDirectories: true, absolute: true, dot: false, suppressErrors: true });
    for (const dir of matches) dirs.add(resolve(dir));
    if (matches.length === 0) emptyGlobs.push(pattern);
  }
  return { dirs: [...dirs].sort(), missing, emptyGlobs };
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The workspaces plus the fallback folder, when it exists: where `emit` writes when the workspace is read-only
 * (src/owner/fallback.ts), so the hook and once mode deliver those summaries too. One `stat` when it does not exist.
 */
export async function withFallbackFolder(dirs: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<readonly string[]> {
  const { dir } = fallbackFolder(env, cwd);
  if (dirs.includes(dir) || !(await isDir(dir))) return dirs;
  return [...dirs, dir];
}
