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

export function skillFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw usageError("--skill is empty; give a skill id such as tessl__check-cfps, or its name, check-cfps");
  const problem = skillNameProblem(value);
  if (problem) throw usageError(`--skill ${JSON.stringify(value)}: ${problem}`);
  return toFullSkillId(value);
}
