// The library's parts that load on first use (src/lib-entry.ts): built as dist/lib/parts.cjs, with their
// dependencies, so `import("skip-summary")` neither reads nor compiles them.
export { SkipSummaryV1 } from "./contract/schema.js";
export { buildJsonSchema } from "./contract/json-schema.js";
export { surfaceOnce } from "./surfacer/once.js";
export { startWatch } from "./surfacer/watch.js";
export { startRefreshLoop } from "./surfacer/refresh-loop.js";
export { surfaceAfterRun } from "./surfacer/after-run.js";
export { setUpSurfacer } from "./surfacer/setup.js";
export { renderSummary } from "./surfacer/render.js";
export { compactLedger } from "./surfacer/ledger/compaction.js";
export { loadNotifiers } from "./notifiers/load-notifiers.js";
export { deliver } from "./notifiers/deliver.js";
export { lintTiles } from "./lint/run-lint.js";
export { FORMATTERS } from "./lint/formatters/index.js";
export { runSkill } from "./runner/run-skill.js";
export { loadPlan, parsePlan, formatPlanProblems } from "./runner/plan/parse.js";
export { runPlan } from "./runner/plan/run-plan.js";
