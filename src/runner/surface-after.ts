// `--surface`: hand this skill's summary to the surfacer once the skill has ended, whatever its outcome.
// The surfacer is loaded only here and only when asked, so a plain run never pays for it.
import { isSkipSummaryError, type SkipSummaryErrorCode } from "../contract/errors.js";
import { EX_USAGE } from "../contract/exit-codes.js";
import type { Logger } from "../log/logger.js";
import type { SurfaceAfterRunOptions } from "../surfacer/after-run.js";
import type { SurfaceReport } from "../surfacer/types.js";
import { loadSurfacer } from "./surfacer-loader.js";

/** What the surfacer's own entry takes, with the workspace already resolved by the run (a type-only import: nothing loads). */
export type SurfaceRequest = SurfaceAfterRunOptions & { readonly workspace: string };

export type SurfaceResult =
  | { readonly kind: "surfaced"; readonly exitCode: number; readonly report: SurfaceReport }
  | { readonly kind: "unavailable"; readonly exitCode: number; readonly message: string }
  | { readonly kind: "failed"; readonly exitCode: number; readonly message: string };

/** EX_UNAVAILABLE: this build has no surfacer, or no notifier is configured and none would reach a person. */
export const SURFACE_UNAVAILABLE_EXIT = 69;
/** EX_SOFTWARE: the surfacer threw, which it should never do. */
export const SURFACE_FAILED_EXIT = 70;
/** EX_CONFIG: the surfacer's config file is wrong (the message names the file and field). */
export const SURFACE_CONFIG_EXIT = 78;

/** What the surfacer's own errors mean for the run's exit code (docs/exit-codes.md, "Codes of the runner itself"). */
const SURFACE_ERROR_EXITS: Readonly<Partial<Record<SkipSummaryErrorCode, number>>> = {
  "config.invalid": SURFACE_CONFIG_EXIT,
  "notifiers.none_available": SURFACE_UNAVAILABLE_EXIT,
  "contract.workspace_not_found": EX_USAGE,
};

export async function surfaceAfterRun(request: SurfaceRequest): Promise<SurfaceResult> {
  const surfacer = await loadSurfacer();
  if (surfacer === undefined) {
    return { kind: "unavailable", exitCode: SURFACE_UNAVAILABLE_EXIT, message: "surfacing is not available in this build (no surfacer module); run `skip-summary surface` separately" };
  }
  try {
    const report = await surfacer.surfaceAfterRun({
      workspace: request.workspace,
      skill: request.skill,
      ...(request.configFile !== undefined ? { configFile: request.configFile } : {}),
      ...(request.notify !== undefined && request.notify.length > 0 ? { notify: request.notify } : {}),
      env: request.env,
      cwd: request.cwd,
      log: request.log,
      ...(request.stdout !== undefined ? { stdout: request.stdout } : {}),
    });
    return { kind: "surfaced", exitCode: surfacer.surfaceExitCode(report), report };
  } catch (error) {
    const exitCode = (isSkipSummaryError(error) ? SURFACE_ERROR_EXITS[error.code] : undefined) ?? SURFACE_FAILED_EXIT;
    return { kind: "failed", exitCode, message: `surfacing failed: ${(error as Error).message ?? String(error)}` };
  }
}
