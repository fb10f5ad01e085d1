// For `skip-summary run --surface`: surface one skill's summary when its run ends, through the configured notifiers.
import { assertSkillId, resolveWorkspace, toFullSkillId } from "../contract/index.js";
import type { Logger } from "../log/logger.js";
import { surfaceOnce } from "./once.js";
import { setUpSurfacer } from "./setup.js";
import type { SurfaceReport } from "./types.js";

export interface SurfaceAfterRunOptions {
  /** The group workspace; `undefined` resolves as every command does (src/contract/workspace.ts). */
  readonly workspace?: string | undefined;
  /** The skill's full id (a bare name gets `tessl__`). */
  readonly skill: string;
  readonly configFile?: string | undefined;
  readonly notify?: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly log: Logger;
  /** Where the `stdout` notifier writes (the CLI passes stderr with --json, so stdout stays one JSON line). @default process.stdout */
  readonly stdout?: { write(text: string): unknown } | undefined;
}

/** Throws `config.invalid` for a bad config and `contract.workspace_not_found` when no workspace can be found; see {@link surfaceExitCode}. */
export async function surfaceAfterRun(options: SurfaceAfterRunOptions): Promise<SurfaceReport> {
  const skill = assertSkillId(toFullSkillId(options.skill));
  const workspace = resolveWorkspace({ flag: options.workspace, env: options.env, cwd: options.cwd });
  const setup = await setUpSurfacer({ ...options, stdout: options.stdout ?? process.stdout });
  return surfaceOnce({
    workspaces: [workspace],
    skill,
    deliver: setup.deliver,
    prepare: setup.load,
    leaseMs: setup.leaseMs,
    lockWaitMs: setup.settings.lockWaitMs,
    concurrency: setup.settings.concurrency,
    log: options.log,
    notices: setup.settings.notices,
  });
}
