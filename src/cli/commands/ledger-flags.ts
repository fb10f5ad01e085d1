// The flags `history` and `silence` share: the workspace (which must exist; these commands never create it) and a skill.
import { stat } from "node:fs/promises";
import { skillNameProblem, toFullSkillId } from "../../contract/ids.js";
import { resolveWorkspace } from "../../contract/workspace.js";
import type { CliIo } from "../io.js";
import { usageError } from "../usage-error.js";

export async function workspaceFlag(flag: string | undefined, io: CliIo): Promise<string> {
  // No workspace named anywhere is `contract.workspace_not_found`, a usage error by the exit-code table.
  const workspace = resolveWorkspace({ flag, env: io.env, cwd: io.cwd });
  const isDir = await stat(workspace).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw usageError(`--workspace ${workspace}: no such folder; pass the group workspace the surfacer watches`);
  return workspace;
}

/** `--workspace` may be repeated; commander collects the values. */
export const collectWorkspace = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The workspaces `history` and `silence` look at, found as `surface` finds them: `--workspace` folders or globs
 * (repeatable), else the config's `surface.workspaces` (`--config FILE`, or ./skip-summary.config.json), else the one
 * default workspace. A literal folder must exist; a glob that matches nothing, when nothing else is found, is an error.
 */
export async function workspacesFlag(flags: readonly string[] | undefined, configFile: string | undefined, io: CliIo): Promise<string[]> {
  let patterns = flags;
  if (patterns === undefined) {
    const { loadConfigFile } = await import("../../config/load.js");
    const config = await loadConfigFile({ flag: configFile, cwd: io.cwd });
    if (config.data.surface !== undefined) {
      const { parseSurfaceSection } = await import("../../surfacer/config.js");
      const configured = parseSurfaceSection(config).workspaces;
      if (configured.length > 0) patterns = configured;
    }
  }
  if (patterns === undefined || (patterns.length === 1 && !/[*?[\]{}()!+@]/.test(patterns[0]!))) return [await workspaceFlag(patterns?.[0], io)];
  const { expandWorkspaces } = await import("../../surfacer/workspaces.js");
  const { dirs, missing, emptyGlobs } = await expandWorkspaces(patterns, io.cwd);
  if (missing.length > 0) throw usageError(`--workspace ${missing[0]}: no such folder; pass the group workspace the surfacer watches (or a glob)`);
  if (dirs.length === 0) throw usageError(`--workspace ${emptyGlobs[0] ?? patterns[0]}: the glob matches no folder`);
  return [...dirs];
}

export function skillFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw usageError("--skill is empty; give a skill id such as tessl__check-cfps, or its name, check-cfps");
  const problem = skillNameProblem(value);
  if (problem) throw usageError(`--skill ${JSON.stringify(value)}: ${problem}`);
  return toFullSkillId(value);
}
