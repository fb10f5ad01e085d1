export * from "./types.js";
export { surfaceOnce, type SurfaceOnceOptions } from "./once.js";
export { surfaceExitCode } from "./exit-code.js";
export { renderSummary, renderQuarantineNotice, escapeHtml, TELEGRAM_MESSAGE_LIMIT } from "./render.js";
export { QUARANTINE_DIR_NAME } from "./quarantine.js";
export { expandWorkspaces } from "./workspaces.js";
