// The surfacer's library API: once mode, watch mode and the runner's after-run hook.
export * from "./types.js";
export { surfaceOnce, type SurfaceOnceOptions } from "./once.js";
export { surfaceExitCode } from "./exit-code.js";
export { renderSummary, renderQuarantineNotice, escapeHtml, TELEGRAM_MESSAGE_LIMIT } from "./render.js";
export { QUARANTINE_DIR_NAME } from "./quarantine.js";
export { expandWorkspaces } from "./workspaces.js";
export { startWatch, type WatchOptions, type WatchHandle } from "./watch.js";
export { startRefreshLoop, type RefreshLoopHandle } from "./refresh-loop.js";
export { surfaceAfterRun, type SurfaceAfterRunOptions } from "./after-run.js";
export { setUpSurfacer, type SurfaceSetup } from "./setup.js";
export { parseHookInput, hookInputInvalid, type HookTarget } from "./hook-input.js";
export { parseSurfaceSection, SURFACE_SECTION } from "./config.js";
export { resolveLeaseMs, longestSendMs, type SurfaceSettings } from "./settings.js";
export { describeOutcome, countOutcomes } from "./describe.js";
