// One precedence for finding the group workspace, shared by every command, `emit` and the hook alike, so the owner
// writes where the surfacer looks (docs/owner.md, "Which workspace"): what the caller named (flag, then env), then
// where Claude Code says the project is, then where the agent works, then the containers' own folders.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SkipSummaryError } from "./errors.js";

export const WORKSPACE_ENV = "SKIP_SUMMARY_WORKSPACE";
/** NanoClaw 1.x: the group folder in the container. */
export const DEFAULT_WORKSPACE = "/workspace/group";
/** NanoClaw 2.x: the agent group's folder (2.x also has a `/workspace/group`, the image's working directory, which is not it). */
export const NANOCLAW2_WORKSPACE = "/workspace/agent";
/** Claude Code sets it for hooks: the project folder, whatever folder the agent has moved to since. */
export const PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR";
/** Claude Code sets `CLAUDECODE=1` for the commands its Bash tool runs (and its hooks): the cwd is then the agent's. */
export const CLAUDE_CODE_ENV = "CLAUDECODE";

/** `contract.workspace_not_found`, worded with the ways to name a workspace. */
export function workspaceNotFound(): SkipSummaryError<"contract.workspace_not_found"> {
  return new SkipSummaryError(
    "contract.workspace_not_found",
    `no workspace: pass --workspace DIR or set ${WORKSPACE_ENV}=DIR (no ${PROJECT_DIR_ENV} either, not run by Claude Code, and neither ${NANOCLAW2_WORKSPACE} nor the default, ${DEFAULT_WORKSPACE}, exists here)`,
  );
}

export interface WorkspaceSources {
  readonly flag?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** A hook event's `cwd`: where the agent works. Without one, the cwd counts when Claude Code runs the command. */
  readonly eventCwd?: string | undefined;
  /** Injected so tests can decide whether the container defaults exist. */
  readonly exists?: (path: string) => boolean;
}

export type WorkspaceSource = "flag" | "env" | "project-dir" | "event-cwd" | "claude-code-cwd" | "nanoclaw2" | "nanoclaw1";

/** {@link resolveWorkspace} with the rule that chose it, for messages and tests. */
export function findWorkspace(sources: WorkspaceSources = {}): { readonly path: string; readonly source: WorkspaceSource } {
  const cwd = sources.cwd ?? process.cwd();
  const env = sources.env ?? process.env;
  const exists = sources.exists ?? existsSync;
  if (sources.flag) return { path: resolve(cwd, sources.flag), source: "flag" };
  if (env[WORKSPACE_ENV]) return { path: resolve(cwd, env[WORKSPACE_ENV]), source: "env" };
  if (env[PROJECT_DIR_ENV]) return { path: resolve(cwd, env[PROJECT_DIR_ENV]), source: "project-dir" };
  if (sources.eventCwd) return { path: resolve(cwd, sources.eventCwd), source: "event-cwd" };
  if (env[CLAUDE_CODE_ENV] === "1") return { path: resolve(cwd), source: "claude-code-cwd" };
  if (exists(NANOCLAW2_WORKSPACE)) return { path: NANOCLAW2_WORKSPACE, source: "nanoclaw2" };
  if (exists(DEFAULT_WORKSPACE)) return { path: DEFAULT_WORKSPACE, source: "nanoclaw1" };
  throw workspaceNotFound();
}

/**
 * `--workspace` > `SKIP_SUMMARY_WORKSPACE` > `CLAUDE_PROJECT_DIR` > the hook event's `cwd` (or the cwd under Claude
 * Code, `CLAUDECODE=1`) > `/workspace/agent` when it exists (NanoClaw 2.x) > `/workspace/group` when it exists; an
 * absolute path.
 */
export function resolveWorkspace(sources: WorkspaceSources = {}): string {
  return findWorkspace(sources).path;
}
