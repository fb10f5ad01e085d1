// One precedence for finding the group workspace, shared by every command: flag, then env, then the container default.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SkipSummaryError } from "./errors.js";

export const WORKSPACE_ENV = "SKIP_SUMMARY_WORKSPACE";
export const DEFAULT_WORKSPACE = "/workspace/group";

/** `contract.workspace_not_found`, worded with the two ways to name a workspace. */
export function workspaceNotFound(): SkipSummaryError<"contract.workspace_not_found"> {
  return new SkipSummaryError("contract.workspace_not_found", `no workspace: pass --workspace DIR or set ${WORKSPACE_ENV}=DIR (the default, ${DEFAULT_WORKSPACE}, does not exist here)`);
}

export interface WorkspaceSources {
  readonly flag?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Injected so tests can decide whether the container default exists. */
  readonly exists?: (path: string) => boolean;
}

/** `--workspace` > `SKIP_SUMMARY_WORKSPACE` > `/workspace/group` when it exists; an absolute path. */
export function resolveWorkspace(sources: WorkspaceSources = {}): string {
  const cwd = sources.cwd ?? process.cwd();
  const fromEnv = (sources.env ?? process.env)[WORKSPACE_ENV];
  if (sources.flag) return resolve(cwd, sources.flag);
  if (fromEnv) return resolve(cwd, fromEnv);
  if ((sources.exists ?? existsSync)(DEFAULT_WORKSPACE)) return DEFAULT_WORKSPACE;
  throw workspaceNotFound();
}
